//! The warm Astro processes (generator/src/run/astro_server.rs): builds
//! in one long-lived Node process never see a module of an earlier build,
//! a failed build names its error and the next build gets a new process.
//! On a minimal Astro project of their own, so that what is compared is
//! exactly the module state.

use std::path::Path;

use dealergen::project::Project;
use dealergen::run::astro_server::{Outcome, Pool, Request};

use crate::support::{self, repo_root};

/// The page: how many times the counter module counted in this build.
const COUNTER_PAGE: &str =
    "---\nimport { next } from '../lib/counter';\nconst n = next();\n---\n<p>render {n}</p>\n";

/// A project whose page shows how many times its module's counter was
/// incremented: 1 in every build when each build loads the module afresh,
/// 2 in the second build of a process that kept the first build's module.
fn counter_project(dir: &Path) {
    let write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "astro.config.mjs",
        "import { defineConfig } from 'astro/config';\n\
         export default defineConfig({ outDir: process.env.DEALERGEN_OUT_DIR ?? './dist', build: { format: 'directory' } });\n",
    );
    write(
        "src/lib/counter.ts",
        "let renders = 0;\nexport function next(): number {\n  renders += 1;\n  return renders;\n}\n",
    );
    write("src/pages/index.astro", COUNTER_PAGE);
    std::os::unix::fs::symlink(repo_root().join("node_modules"), dir.join("node_modules")).unwrap();
}

fn build(pool: &Pool, project: &Project, dir: &Path) -> (Result<(), String>, String) {
    let log = dir.join("build.log");
    let outcome = pool
        .build(
            project,
            &Request {
                node: dealergen::run::astro::node_binary(project),
                project_dir: dir,
                // The same output folder every time, as a batch project's.
                out_dir: Path::new("out"),
                cache_dir: Path::new(".astro-cache"),
                force: false,
                log: &log,
            },
            |_| Ok(()),
            |_| {},
        )
        .unwrap();
    let log = std::fs::read_to_string(&log).unwrap_or_default();
    match outcome {
        Outcome::Built => (Ok(()), log),
        Outcome::Failed(why) => (Err(why), log),
    }
}

/// "dealergen: Astro process <pid>, build <n> of this process".
fn process_of(log: &str) -> (String, usize) {
    let line = log
        .lines()
        .find(|l| l.starts_with("dealergen: Astro process "))
        .unwrap_or_else(|| panic!("no process line in the log:\n{log}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    (
        words[3].trim_end_matches(',').to_string(),
        words[5].parse().unwrap(),
    )
}

#[test]
fn a_warm_process_loads_the_projects_modules_afresh_for_every_build() {
    support::require_astro();
    let project = Project::new(repo_root());
    let site = tempfile::tempdir().unwrap();
    counter_project(site.path());
    let pool = Pool::new();
    let page = || std::fs::read_to_string(site.path().join("out/index.html")).unwrap();

    let (first, log) = build(&pool, &project, site.path());
    first.unwrap_or_else(|e| panic!("{e}\n{log}"));
    let (pid, n) = process_of(&log);
    assert_eq!(n, 1);
    assert!(page().contains("render 1"), "{}", page());

    // The same project, unchanged, into the same folder: the server bundle
    // has the same file names, which Node would hand back from its cache.
    let (second, log) = build(&pool, &project, site.path());
    second.unwrap_or_else(|e| panic!("{e}\n{log}"));
    assert_eq!(process_of(&log), (pid.clone(), 2), "the same process, warm");
    assert!(
        page().contains("render 1"),
        "the module was loaded again, not kept: {}",
        page()
    );

    // A code change is seen by the warm process.
    std::fs::write(
        site.path().join("src/pages/index.astro"),
        "---\nimport { next } from '../lib/counter';\nconst n = next();\n---\n<p>changed {n}</p>\n",
    )
    .unwrap();
    let (third, log) = build(&pool, &project, site.path());
    third.unwrap_or_else(|e| panic!("{e}\n{log}"));
    assert_eq!(process_of(&log), (pid.clone(), 3));
    assert!(page().contains("changed 1"), "{}", page());

    // A broken page fails its build with Astro's error and retires the process.
    std::fs::write(
        site.path().join("src/pages/index.astro"),
        "---\nimport { missing } from '../lib/no-such-module';\n---\n<p>{missing}</p>\n",
    )
    .unwrap();
    let (broken, log) = build(&pool, &project, site.path());
    let why = broken.expect_err("a broken page fails the build");
    assert!(
        log.contains("no-such-module") || why.contains("no-such-module"),
        "the error names what is missing: {why}\n{log}"
    );
    // Fixed: the next build runs in a new process, and succeeds.
    std::fs::write(site.path().join("src/pages/index.astro"), COUNTER_PAGE).unwrap();
    let (fixed, log) = build(&pool, &project, site.path());
    fixed.unwrap_or_else(|e| panic!("{e}\n{log}"));
    let (next_pid, n) = process_of(&log);
    assert_ne!(next_pid, pid, "a failed build's process is not reused");
    assert_eq!(n, 1);
    assert!(page().contains("render 1"), "{}", page());
    pool.stop_idle();
}
