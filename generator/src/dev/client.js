// dealergen dev: added to every page the preview server sends (never to
// the built files). Reloads the page after a good build and shows the
// problems of a failed one over the last good build. Styles are set
// through the DOM (el.style), which the site's Content-Security-Policy
// allows, where style attributes and inline <style> are not.
const events = new EventSource('/__dealergen/events');
let seen = null;
let box = null;

const css = (el, styles) => Object.assign(el.style, styles);

function hide() {
  box?.remove();
  box = null;
}

function show(overlay) {
  hide();
  box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.dataset.dealergenOverlay = '';
  css(box, {
    position: 'fixed', inset: '0', zIndex: '2147483647', overflow: 'auto', padding: '2rem',
    background: 'rgba(20, 20, 24, 0.94)', color: '#f5f5f5', font: '14px/1.5 ui-monospace, Menlo, Consolas, monospace',
  });
  const title = document.createElement('h2');
  title.textContent = overlay.title;
  css(title, { color: '#ff8a80', font: 'bold 18px/1.4 system-ui, sans-serif', margin: '0 0 1rem' });
  const note = document.createElement('p');
  note.textContent = `${overlay.note} Save a fix and this page reloads.`;
  css(note, { margin: '0 0 1rem', font: '14px/1.4 system-ui, sans-serif' });
  const text = document.createElement('pre');
  text.textContent = overlay.text;
  css(text, { whiteSpace: 'pre-wrap', margin: '0 0 1rem' });
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Hide (the problems stay in the terminal)';
  css(close, { font: '14px system-ui, sans-serif', padding: '0.5rem 1rem', cursor: 'pointer' });
  close.addEventListener('click', hide);
  box.append(title, note, text, close);
  document.body.append(box);
}

events.addEventListener('hello', (e) => {
  const { build, overlay } = JSON.parse(e.data);
  // After a reconnect (the server restarted, or a reload was missed): a
  // newer build than the one this page came from.
  if (seen !== null && build !== seen) location.reload();
  seen = build;
  // Connected, and whether the last build failed (its overlay comes next):
  // for a test to wait on instead of a fixed time.
  document.documentElement.dataset.dealergenConnected = overlay ? 'failing' : 'ok';
});
events.addEventListener('reload', () => location.reload());
events.addEventListener('overlay', (e) => {
  delete document.documentElement.dataset.dealergenBuilding;
  show(JSON.parse(e.data));
});
// A build is running (for a style or a test to wait on; the reload ends it).
events.addEventListener('building', () => {
  document.documentElement.dataset.dealergenBuilding = '';
});
