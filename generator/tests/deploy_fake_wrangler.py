#!/usr/bin/env python3
"""A stand-in for wrangler in the deploy tests (generator/tests/deploy.rs).

It answers the commands `dealergen deploy` and `rollback` run, as the real
wrangler 4 does (exit status, stdout, the WRANGLER_OUTPUT_FILE_PATH record),
against a little account kept in $FAKE_WRANGLER_STATE:

  kv-<id>.json     each KV namespace {key: value}, by namespace id
  secrets-<w>.json secret names of worker w
  pending-<id>.json D1 migrations not applied yet, by database id (a
                   database without the file is new: every migration of
                   the config's migrations_dir is pending)
  workers.json     {worker: {"versions": [ids], "live": id, "assets": dir}}
  previews.json    {worker: {preview name: {"assets": dir, "deployments": n,
                   "config": the config's keys}}} (Worker Previews)
  fail.json        [[argv substring, cwd substring], ...]: calls that fail
  log.jsonl        one line per call: argv, cwd, stdin, whether a token was set
  kv-writes.jsonl  one line per kv bulk put: the keys it wrote
  d1-<name>.sqlite the database of `d1 execute <name> --remote`: real
                   SQLite with every migration of $FAKE_WRANGLER_STATE/../edge/migrations applied, so a
                   query is answered as D1 (SQLite) answers it

Nothing here reaches the network.
"""
import json
import os
import sys

state = os.environ["FAKE_WRANGLER_STATE"]
argv = sys.argv[1:]
cwd = os.getcwd()


def load(name, default):
    try:
        with open(os.path.join(state, name)) as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def save(name, value):
    with open(os.path.join(state, name), "w") as f:
        json.dump(value, f, indent=1, sort_keys=True)


def opt(name):
    if name in argv:
        return argv[argv.index(name) + 1]
    return None


with open(os.path.join(state, "log.jsonl"), "a") as f:
    f.write(json.dumps({
        "argv": argv,
        "cwd": cwd,
        "token": bool(os.environ.get("CLOUDFLARE_API_TOKEN")),
        "ci": os.environ.get("CI"),
    }) + "\n")

line = " ".join(argv)
for pattern, where in load("fail.json", []):
    if pattern in line and where in cwd:
        print("X [ERROR] A request to the Cloudflare API failed: injected failure (code: 10000)", file=sys.stderr)
        sys.exit(1)

if not os.environ.get("CLOUDFLARE_API_TOKEN"):
    print("X [ERROR] In a non-interactive environment, it's necessary to set a CLOUDFLARE_API_TOKEN", file=sys.stderr)
    sys.exit(1)

workers = load("workers.json", {})


def config():
    path = opt("--config") or "wrangler.json"
    with open(os.path.join(cwd, path)) as f:
        return json.load(f)


def output(record):
    path = os.environ.get("WRANGLER_OUTPUT_FILE_PATH")
    if path:
        with open(path, "a") as f:
            f.write(json.dumps(record) + "\n")


def database():
    c = config()
    db = next(d for d in c["d1_databases"] if d["binding"] == "DB")
    name = f"pending-{db['database_id']}.json"
    if not os.path.exists(os.path.join(state, name)):
        folder = os.path.join(cwd, db.get("migrations_dir", "migrations"))
        save(name, sorted(f for f in os.listdir(folder) if f.endswith(".sql")))
    return name


if argv[:1] == ["kv"]:
    if "--remote" not in argv or not opt("--namespace-id"):
        print("X [ERROR] expected --namespace-id and --remote", file=sys.stderr)
        sys.exit(1)
    kv_file = f"kv-{opt('--namespace-id')}.json"
    kv = load(kv_file, {})
    sub = argv[1:3]
    if sub == ["key", "get"]:
        key = argv[3]
        if key not in kv:
            print(f"X [ERROR] Failed to fetch https://api.cloudflare.com/client/v4/accounts/x/storage/kv/namespaces/y/values/{key} - 404: Not Found", file=sys.stderr)
            sys.exit(1)
        sys.stdout.write(kv[key])
    elif sub == ["key", "put"]:
        with open(opt("--path")) as f:
            kv[argv[3]] = f.read()
        save(kv_file, kv)
        print(f"Writing the contents of {opt('--path')} to the key \"{argv[3]}\" on namespace y.")
    elif sub == ["bulk", "put"]:
        with open(argv[3]) as f:
            entries = json.load(f)
        for e in entries:
            kv[e["key"]] = e["value"]
        save(kv_file, kv)
        # Which keys each bulk put wrote (a deployment writes only changed ones).
        with open(os.path.join(state, "kv-writes.jsonl"), "a") as f:
            f.write(json.dumps(sorted(e["key"] for e in entries)) + "\n")
        print("Success!")
    elif sub == ["bulk", "delete"]:
        with open(argv[3]) as f:
            for k in json.load(f):
                kv.pop(k, None)
        save(kv_file, kv)
        print("Success!")
    else:
        sys.exit(f"fake wrangler: unknown kv command {line}")
elif argv[:2] == ["d1", "execute"]:
    # wrangler d1 execute <name> --remote --json --command <SQL>: the
    # results as wrangler 4 prints them with --json.
    import sqlite3
    if "--remote" not in argv or not opt("--command"):
        print("X [ERROR] expected --remote and --command", file=sys.stderr)
        sys.exit(1)
    path = os.path.join(state, f"d1-{argv[2]}.sqlite")
    fresh = not os.path.exists(path)
    db = sqlite3.connect(path)
    if fresh:
        # The edge's migrations beside the account (the deploy tests' fixture layout).
        migrations = os.path.join(state, "..", "edge", "migrations")
        for name in sorted(f for f in os.listdir(migrations) if f.endswith(".sql")):
            with open(os.path.join(migrations, name)) as f:
                db.executescript(f.read())
    db.row_factory = sqlite3.Row
    try:
        rows = [dict(r) for r in db.execute(opt("--command")).fetchall()]
        db.commit()
    except sqlite3.Error as e:
        print(f"X [ERROR] {e}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps([{"results": rows, "success": True, "meta": {}}]))
elif argv[:2] == ["secret", "list"]:
    worker = opt("--name") or config()["name"]
    print(json.dumps([{"name": n, "type": "secret_text"} for n in load(f"secrets-{worker}.json", [])]))
elif argv[:2] == ["secret", "put"]:
    # wrangler secret put <NAME> --name <worker>: the value on stdin.
    worker = opt("--name") or config()["name"]
    if not sys.stdin.read().strip():
        print("X [ERROR] no secret value on stdin", file=sys.stderr)
        sys.exit(1)
    names = load(f"secrets-{worker}.json", [])
    names = sorted(set(names) | {argv[2]})
    save(f"secrets-{worker}.json", names)
    print(f"✨ Success! Uploaded secret {argv[2]}")
elif argv[:3] == ["d1", "migrations", "list"]:
    pending = load(database(), [])
    if pending:
        print("Migrations to be applied:")
        print("┌" + "─" * 30 + "┐")
        for p in pending:
            print(f"│ {p} │")
    else:
        print("✅ No migrations to apply!")
elif argv[:3] == ["d1", "migrations", "apply"]:
    db = database()
    for p in load(db, []):
        print(f"│ {p} │ ✅ │")
    save(db, [])
elif argv[:1] == ["deploy"]:
    c = config()
    name = c["name"]
    w = workers.setdefault(name, {"versions": [], "live": None})
    vid = f"{name}-v{len(w['versions']) + 1}"
    w["versions"].append(vid)
    w["live"] = vid
    if "assets" in c:
        w["assets"] = os.path.realpath(os.path.join(cwd, c["assets"]["directory"]))
        w.setdefault("assets_by_version", {})[vid] = w["assets"]
    w["routes"] = [r["pattern"] for r in c.get("routes", [])]
    w["kv"] = [k["id"] for k in c.get("kv_namespaces", [])]
    w["d1"] = [d["database_id"] for d in c.get("d1_databases", [])]
    w["queues"] = sorted({q["queue"] for side in c.get("queues", {}).values() for q in side})
    w["vars"] = c.get("vars", {})
    save("workers.json", workers)
    output({"type": "deploy", "version": 1, "worker_name": name, "version_id": vid})
    print(f"Uploaded {name}\nCurrent Version ID: {vid}")
elif argv[:2] == ["versions", "list"]:
    name = opt("--name")
    w = workers.get(name)
    if w is None:
        print(f"X [ERROR] This Worker does not exist on your account. [code: 10007]", file=sys.stderr)
        sys.exit(1)
    print(json.dumps([{"id": v, "number": i + 1} for i, v in enumerate(w["versions"])]))
elif argv[:1] == ["rollback"]:
    name = opt("--name")
    vid = argv[1]
    w = workers.get(name)
    if w is None or vid not in w["versions"]:
        print(f"X [ERROR] version {vid} not found", file=sys.stderr)
        sys.exit(1)
    w["live"] = vid
    if "assets_by_version" in w:
        w["assets"] = w["assets_by_version"][vid]
    save("workers.json", workers)
    output({"type": "rollback", "version": 1, "worker_name": name, "version_id": vid})
    print(f"Worker Version {vid} has been deployed to 100% of traffic.")
elif argv[:2] == ["preview", "delete"]:
    # wrangler preview delete --name <preview> --worker-name <worker> -y
    previews = load("previews.json", {})
    name, worker = opt("--name"), opt("--worker-name")
    if name not in previews.get(worker, {}):
        print(f"X [ERROR] A request to the Cloudflare API failed: Preview \"{name}\" not found [code: 10000]", file=sys.stderr)
        sys.exit(1)
    del previews[worker][name]
    save("previews.json", previews)
    print(f"✨ Preview \"{name}\" deleted successfully.")
elif argv[:1] == ["preview"]:
    # wrangler preview --config <file> --name <preview> --message <m> --json
    c = config()
    worker, name = c["name"], opt("--name")
    previews = load("previews.json", {})
    p = previews.setdefault(worker, {}).setdefault(name, {"deployments": 0})
    p["deployments"] += 1
    p["assets"] = os.path.realpath(os.path.join(cwd, c["assets"]["directory"]))
    p["config"] = sorted(c.keys())
    p["previews"] = c.get("previews")
    p["run_worker_first"] = c["assets"].get("run_worker_first")
    p["message"] = opt("--message")
    save("previews.json", previews)
    deployment = f"{p['deployments']:08x}"
    print(json.dumps({
        "preview": {"id": f"{worker}-{name}", "name": name, "slug": name,
                    "urls": [f"https://{name}-{worker}.fake-account.workers.dev"]},
        "deployment": {"id": deployment,
                       "urls": [f"https://{deployment}-{worker}.fake-account.workers.dev"]},
    }, indent=2))
else:
    sys.exit(f"fake wrangler: unknown command {line}")
