// Muster's service worker, served at /sw.js (scope /) by app/web/pwa.py, which fills in the
// version and the app shell. See docs/offline.md.
//
// - The app shell (CSS, scripts, htmx, icons, the offline page, the home page, the packs' unit
//   catalogues at /catalogues/<id>.json) is precached
//   under a cache named after the release; a new release installs a new worker, which waits
//   until the player taps "Reload" on the banner the pages show, then deletes the old cache.
// - Static files: cache first when versioned by content (?v=), else stale-while-revalidate. Pages: network first, and every full page the
//   server sends is kept, so a game opened once can be reloaded and continued offline; the
//   newest MAX_PAGES are kept, and every game with entries still waiting to be sent.
// - Nothing the server marked Cache-Control: no-store (answers carrying an edit token) is
//   ever kept; the pages kept for offline use are marked "private, no-cache" instead, and are
//   kept without the parts the server marked never to keep (the seats' and the join links).
// - POSTs are never touched: a page puts every entry in the outbox (outbox.js) before it sends
//   it, and this worker replays the outbox on Background Sync, then refreshes the kept copy of
//   each game it sent entries of, so that a phone reopened offline shows what Muster holds.
"use strict";

const VERSION = "__VERSION__";
const SHELL = "__SHELL__";
const SHELL_CACHE = "muster-shell-" + VERSION;
importScripts("__OUTBOX__");
const PAGES_CACHE = self.MusterOutbox.PAGES;
const OFFLINE_URL = "/offline";
const SYNC_TAG = "muster-outbox";
// How many pages a phone keeps: the newest, plus any game with entries still waiting to be sent.
const MAX_PAGES = "__MAX_PAGES__";
// Headers worth keeping on a stored page: its type and its security policy.
const KEPT_HEADERS = ["Content-Type", "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE).then((cache) =>
      Promise.all(
        SHELL.map((url) =>
          // A file versioned by its content (?v=) never changes, so the copy the page just
          // loaded into the browser's cache will do; anything else is fetched afresh. The shell
          // is the same for everyone: fetched without the phone's cookies, its answers cannot
          // put back a session a log-in has just replaced (the next form would be refused).
          fetch(new Request(url, { cache: url.includes("?v=") ? "default" : "reload", credentials: "omit" })).then((response) => {
            if (!response.ok) throw new Error("precache " + url + ": " + response.status);
            return cache.put(url, response);
          })
        )
      )
    )
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith("muster-shell-") && n !== SHELL_CACHE).map((n) => caches.delete(n)))
      )
      .then(() => self.clients.claim())
  );
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "skip-waiting") self.skipWaiting();
  if (data.type === "version" && event.source) event.source.postMessage({ type: "version", version: VERSION });
  if (data.type === "flush") event.waitUntil(replay().catch(() => {}));
  if (data.type === "sending") event.waitUntil(watch(data.ids || [], Number(data.timeout) || 15000));
  if (data.type === "language") event.waitUntil(keepLanguage(data.lang).then(refreshAll).catch(() => {}));
  if (data.type === "refresh") event.waitUntil(Promise.all((data.games || []).map((game) => refreshKept(String(game)).catch(() => {}))));
});

self.addEventListener("sync", (event) => {
  if (event.tag === SYNC_TAG) event.waitUntil(replay());
});

// A page is sending entries itself (they are in the outbox already): should it be closed or
// reloaded before Muster answers, nothing of it is left to send them. A little after the
// page's own request would have given up, whatever is still waiting is left to Background Sync.
async function watch(ids, timeout) {
  await new Promise((resolve) => setTimeout(resolve, timeout + 2000));
  const waiting = (await self.MusterOutbox.list()).filter((e) => ids.includes(e.id) && e.status !== "refused");
  if (!waiting.length) return;
  if (self.registration.sync) await self.registration.sync.register(SYNC_TAG).catch(() => replay());
  else await replay().catch(() => {});
}

async function replay() {
  const result = await self.MusterOutbox.flush();
  const sent = Array.from(new Set(result.sent.map((e) => e.game).filter(Boolean)));
  // The kept copy of a game is what an offline reopen shows: bring it up to what Muster holds.
  await Promise.all(sent.map((game) => refreshKept(game).catch(() => {})));
  if (result.sent.length || result.refused.length) {
    const pages = await self.clients.matchAll({ type: "window" });
    const games = Array.from(new Set(result.sent.concat(result.refused).map((e) => e.game).filter(Boolean)));
    // The entries sent go with the news: a page that cannot fetch the game now still counts them.
    pages.forEach((page) =>
      page.postMessage({ type: "outbox", games: games, sent: result.sent.length, refused: result.refused.length, entries: result.sent })
    );
  }
  // Background Sync tries again later when the server could not be reached or asked to wait.
  if (result.unreachable) throw new Error("Muster could not be reached");
  if (result.busy || result.held.length || result.retryAt) throw new Error("Muster asked to be sent this again later");
}

// Fetch again every kept page of the game itself (its screen, each seat's own copy being
// under the same address on its own phone) and keep the answer.
async function refreshKept(game) {
  const cache = await caches.open(PAGES_CACHE);
  const keys = await cache.keys();
  const pages = keys.filter((request) => gameOf(request.url) === game && new URL(request.url).pathname.split("/").length === 3);
  await Promise.all(
    pages.map(async (request) => {
      const response = await fetch(request.url, { credentials: "same-origin", headers: { Accept: "text/html" }, cache: "no-store" });
      await keepPage(pageKey(request.url), response);
    })
  );
}

// The language of the phone's pages (its pages say it), kept apart from any release's caches:
// the offline page shown for a page never opened is the one in that language.
const SETTINGS_CACHE = "muster-settings";
const LANGUAGE_KEY = "/__muster/language";
async function keepLanguage(lang) {
  if (typeof lang !== "string" || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(lang)) return;
  const cache = await caches.open(SETTINGS_CACHE);
  await cache.put(LANGUAGE_KEY, new Response(lang));
}
async function pagesLanguage() {
  const kept = await caches.match(LANGUAGE_KEY, { cacheName: SETTINGS_CACHE });
  return kept ? await kept.text() : null; // not heard yet: the phone's own language (OFFLINE_URL)
}

// The phone changed language: every kept page is fetched again in the new one (the request
// carries the phone's cookie, so the switch's choice). One that cannot be fetched keeps its copy.
async function refreshAll() {
  const cache = await caches.open(PAGES_CACHE);
  const keys = await cache.keys();
  await Promise.all(
    keys.map(async (request) => {
      const response = await fetch(request.url, { credentials: "same-origin", headers: { Accept: "text/html" }, cache: "no-store" }).catch(() => null);
      if (response) await keepPage(pageKey(request.url), response);
    })
  );
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname === "/sw.js") return;
  // The API and the club admin's pages are never kept on a phone.
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/admin")) return;
  // The unit catalogues are precached with the shell: kept on the phone like the app itself.
  if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/catalogues/") || url.pathname.startsWith("/words/") || url.pathname === "/manifest.webmanifest") {
    event.respondWith(staticFile(event, url));
  } else if (request.mode === "navigate" || (request.headers.get("Accept") || "").includes("text/html")) {
    event.respondWith(networkFirst(event, url));
  }
});

// A versioned file (?v=<hash of its content>) never changes: cache first. A file without a
// version is served from the cache and refreshed behind it. Offline, a page kept from an
// older release still gets the file under its name, whatever its version.
async function staticFile(event, url) {
  const cache = await caches.open(SHELL_CACHE);
  const versioned = url.searchParams.has("v");
  const cached = await cache.match(versioned ? url.href : url.pathname, { ignoreSearch: !versioned });
  const fresh = fetch(event.request)
    .then((response) => {
      if (response.ok && response.type === "basic" && !noStore(response)) {
        return cache.put(versioned ? url.href : url.pathname, response.clone()).then(() => response);
      }
      return response;
    })
    .catch(() => null);
  if (cached) {
    if (!versioned) event.waitUntil(fresh);
    return cached;
  }
  return (await fresh) || (await cache.match(url.pathname, { ignoreSearch: true })) || Response.error();
}

// Whether the server asked that no copy of an answer be kept (it carries an edit token).
function noStore(response) {
  return /(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get("Cache-Control") || "");
}

// A full page (not an htmx fragment) is kept under its address, with its security headers,
// unless the server marked it no-store.
async function keepPage(url, response) {
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok || response.type !== "basic" || !type.startsWith("text/html") || noStore(response)) return;
  const text = self.MusterOutbox.keepable(await response.text());
  if (!/^\s*<!doctype html/i.test(text)) return;
  const headers = new Headers();
  KEPT_HEADERS.forEach((name) => {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  });
  const cache = await caches.open(PAGES_CACHE);
  await cache.put(url, new Response(text, { status: 200, headers: headers }));
  await prunePages(cache);
}

// A page stored again moves to the end of the cache's keys, so the oldest come first.
async function prunePages(cache) {
  const keys = await cache.keys();
  if (keys.length <= MAX_PAGES) return;
  const waiting = new Set((await self.MusterOutbox.list()).map((entry) => entry.game));
  const old = keys.slice(0, keys.length - MAX_PAGES).filter((request) => !waiting.has(gameOf(request.url)));
  await Promise.all(old.map((request) => cache.delete(request)));
}

function gameOf(href) {
  const found = new URL(href).pathname.match(/^\/games\/([^/]+)/);
  return found ? decodeURIComponent(found[1]) : null;
}

function pageKey(href) {
  const url = new URL(href);
  return url.origin + url.pathname + url.search;
}

function fragmentRequest(request) {
  const h = request.headers;
  return h.get("HX-Request") === "true" && h.get("HX-Boosted") !== "true" && h.get("HX-History-Restore-Request") !== "true";
}

async function networkFirst(event, url) {
  const request = event.request;
  try {
    const response = await fetch(request);
    const key = pageKey(response.redirected && response.url ? response.url : request.url);
    const kept = keepPage(key, response.clone()).catch(() => {});
    // A page asking to refresh its stored copy waits for it, so the copies stay in order.
    if (request.headers.get("X-Muster-Refresh")) await kept;
    else event.waitUntil(kept);
    return response;
  } catch (error) {
    // A fragment for part of a page (htmx, not a boosted move nor a history restore) has no
    // offline stand-in; a whole page asked for by htmx does, as app/web/pages.py decides.
    if (fragmentRequest(request)) return Response.error();
    const key = pageKey(url.href);
    const cached = (await caches.match(key, { cacheName: PAGES_CACHE })) || (await caches.match(key, { cacheName: SHELL_CACHE }));
    if (cached) return cached;
    const lang = await pagesLanguage();
    const offline =
      (lang && (await caches.match(OFFLINE_URL + "/" + lang, { cacheName: SHELL_CACHE }))) ||
      (await caches.match(OFFLINE_URL, { cacheName: SHELL_CACHE }));
    return offline || Response.error();
  }
}
