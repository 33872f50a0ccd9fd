/**
 * What a child process prints, stdout and stderr together in the order
 * they arrive, and a wait for a pattern in it that resolves as soon as the
 * text arrives (an event, not a poll). Used for `wrangler dev`
 * (scripts/lib/wrangler.mjs) and `dealergen dev` (the dev e2e suite and
 * the dev-reload bench).
 */
export function watchOutput(child, name = 'the process') {
  const watched = { text: '' };
  const waiters = new Set();
  const wake = () => {
    for (const check of [...waiters]) check();
  };
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (d) => {
      watched.text += d;
      wake();
    });
  }
  // 'close', not 'exit': output can still arrive after the process exited.
  let closed = false;
  child.once('close', () => {
    closed = true;
    wake();
  });
  /**
   * The first match of `re` in the output from offset `from` on; rejects
   * when the process has ended and closed its output first, or after `ms`,
   * with its last output.
   */
  watched.waitFor = (re, from = 0, ms = 10_000) =>
    new Promise((resolve, reject) => {
      const done = (fn, value) => {
        waiters.delete(check);
        clearTimeout(timer);
        fn(value);
      };
      const check = () => {
        const m = watched.text.slice(from).match(re);
        if (m) done(resolve, m);
        else if (closed) done(reject, new Error(`${name} exited before printing ${re}:\n${watched.text.slice(-2000)}`));
      };
      const timer = setTimeout(() => done(reject, new Error(`${name} did not print ${re} within ${ms} ms:\n${watched.text.slice(from).slice(-1000)}`)), ms);
      waiters.add(check);
      check();
    });
  return watched;
}
