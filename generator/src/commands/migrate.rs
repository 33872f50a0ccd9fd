//! `dealergen migrate-check`: the old site's addresses against the built
//! site (crate::migrate), as text, JSON or GitHub annotations.

use anyhow::Result;

use crate::cli::{MigrateCheckArgs, OutputFormat};
use crate::migrate::{addresses, Answer, Checker, Finding};
use crate::project::Project;

/// More hops than this is reported: each costs a round trip and some ranking.
const HOPS_WORTH_SAYING: usize = 2;

pub fn run(project: &Project, args: MigrateCheckArgs) -> Result<i32> {
    let dealer = match super::load_one(project, &args.dealer)? {
        Ok(d) => d,
        Err(code) => return Ok(code),
    };
    let dist = args
        .dist
        .unwrap_or_else(|| project.site_dir(&dealer.slug).join("dist"));
    let checker = Checker::open(&dist, &dealer)?;
    let list = addresses::read(&args.urls)?;
    let findings: Vec<(usize, Finding)> = list
        .iter()
        .map(|a| (a.line, checker.check(&a.url, &a.path_and_query)))
        .collect();
    let failing = findings
        .iter()
        .filter(|(_, f)| f.answer == Answer::Missing && !f.accepted)
        .count();
    match args.format {
        OutputFormat::Json => {
            let all: Vec<&Finding> = findings.iter().map(|(_, f)| f).collect();
            println!("{}", serde_json::to_string_pretty(&all)?);
        }
        OutputFormat::Github => {
            let file = args.urls.display();
            for (line, f) in &findings {
                match f.answer {
                    Answer::Missing if !f.accepted => println!(
                        "::error file={file},line={line},title=missing on the new site::{} answers 404 ({}); add a redirect under `redirects:` in dealers/{}.yaml, or list it under migration.accept_missing",
                        f.url, f.rule, dealer.slug
                    ),
                    Answer::Redirect if f.hops > HOPS_WORTH_SAYING => println!(
                        "::warning file={file},line={line},title={} hops::{} reaches {} in {} hops: {}",
                        f.hops, f.url, f.to.as_deref().unwrap_or(""), f.hops, f.chain.join(", ")
                    ),
                    _ => {}
                }
            }
        }
        OutputFormat::Human => {
            for (_, f) in &findings {
                println!("{}", human_line(f));
            }
            let count = |a: Answer| findings.iter().filter(|(_, f)| f.answer == a).count();
            let accepted = findings.iter().filter(|(_, f)| f.accepted).count();
            println!(
                "{} address(es): {} page(s), {} redirect(s), {} missing ({accepted} accepted by migration.accept_missing)",
                findings.len(),
                count(Answer::Page),
                count(Answer::Redirect),
                count(Answer::Missing)
            );
            if failing > 0 {
                println!("FAILED {}: {failing} old address(es) would answer 404; redirect each under `redirects:` (docs/migrating.md), or accept it under migration.accept_missing", dealer.slug);
            }
        }
    }
    Ok(if failing > 0 { 1 } else { 0 })
}

fn human_line(f: &Finding) -> String {
    match f.answer {
        Answer::Page => format!("page      {}  ({})", f.url, f.rule),
        Answer::Redirect => {
            let far = if f.hops > HOPS_WORTH_SAYING {
                format!(", over {HOPS_WORTH_SAYING}: {}", f.chain.join(", "))
            } else {
                String::new()
            };
            format!(
                "redirect  {} -> {}  ({} hop(s){far}; {})",
                f.url,
                f.to.as_deref().unwrap_or(""),
                f.hops,
                f.rule
            )
        }
        Answer::Missing => {
            let tag = if f.accepted { "accepted" } else { "MISSING " };
            let via =
                f.to.as_deref()
                    .map(|t| format!(" via {t}"))
                    .unwrap_or_default();
            format!("{tag}  {}{via}  ({})", f.url, f.rule)
        }
    }
}
