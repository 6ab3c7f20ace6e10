// The door app's service worker (docs/API.md, "The door app"): the app's own files from the
// cache first, so that the page loads with no network at all (a reload in a cellar shows the
// app, not the browser's "no internet" page), refreshed in the background whenever the network
// answers, so a new release is there on the next load. The API's answers are never cached here:
// the app keeps its tickets and scans itself. Service workers need a secure context (HTTPS or
// localhost); on plain HTTP the app runs without one, and needs the network to load.
const CACHE = 'box-office-door-v1';
const SHELL = [
  '/door',
  '/door/door.css',
  '/door/door.js',
  '/door/local-tickets.js',
  '/door/camera.js',
  '/door/client/index.js',
  '/door/vendor/openapi-fetch.mjs',
  '/door/manifest.webmanifest',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** The app's files, /door and /door/… (the worker itself aside): never the API. */
function isAppFile(url) {
  return (
    url.origin === self.location.origin &&
    (url.pathname === '/door' || url.pathname.startsWith('/door/')) &&
    url.pathname !== '/door/sw.js'
  );
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !isAppFile(url)) return;
  // /door/ and /door?key=… are the page at /door.
  const key = request.mode === 'navigate' ? '/door' : url.pathname;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const cached = await cache.match(key);
      const fresh = fetch(request)
        .then((response) => {
          if (response.ok) void cache.put(key, response.clone());
          return response;
        })
        .catch(() => undefined);
      if (cached) {
        event.waitUntil(fresh);
        return cached;
      }
      return (await fresh) ?? Response.error();
    }),
  );
});
