// Muster's outbox: game events recorded while the server could not be reached, kept in
// IndexedDB and sent again in order. Loaded by the pages and by the service worker
// (importScripts), so a replay can start from either; see docs/offline.md.
//
// An entry is one form as it was submitted: its event UUID, the game, the form's action and
// body, a title and the values as the player saw them, what the server's step data said of the
// form (offline.js), and a status: "waiting" until the server answers, "refused" (with the
// server's sentence, from its X-Muster-Refusal header, and what it holds now, as the server
// renders it) when the rules refuse it. A refused entry stays until the player dismisses it; the entries after it in the
// same game wait for that. The server's idempotency (an id it already holds changes nothing)
// makes sending an entry twice harmless.
(function (scope) {
  "use strict";

  var DB_NAME = "muster";
  var DB_VERSION = 1;
  var PAGES = "muster-pages-1";
  var LOCK = "muster-outbox";
  // How long one replayed entry may wait for an answer: htmx's own timeout (base.html).
  var TIMEOUT = 15000;
  var dbPromise = null;

  function promised(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function open() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var request = scope.indexedDB.open(DB_NAME, DB_VERSION);
        request.onupgradeneeded = function () {
          var db = request.result;
          if (!db.objectStoreNames.contains("outbox")) db.createObjectStore("outbox", { keyPath: "id" });
          if (!db.objectStoreNames.contains("sent")) db.createObjectStore("sent", { keyPath: "id" });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { dbPromise = null; reject(request.error); };
      });
    }
    return dbPromise;
  }

  function store(name, mode) {
    return open().then(function (db) { return db.transaction(name, mode).objectStore(name); });
  }

  function list(game) {
    return store("outbox", "readonly")
      .then(function (s) { return promised(s.getAll()); })
      .then(function (entries) {
        return entries
          .filter(function (e) { return !game || e.game === game; })
          .sort(function (a, b) { return a.seq - b.seq; });
      });
  }

  function get(id) {
    return store("outbox", "readonly").then(function (s) { return promised(s.get(id)); });
  }

  function put(entry) {
    return store("outbox", "readwrite").then(function (s) { return promised(s.put(entry)); });
  }

  function remove(id) {
    return store("outbox", "readwrite").then(function (s) { return promised(s.delete(id)); });
  }

  // Entries keep the order they were made in, across pages and reloads.
  function add(entry) {
    return list().then(function (entries) {
      var last = entries.length ? entries[entries.length - 1].seq : 0;
      entry.seq = Math.max(Date.now(), last + 1);
      entry.status = entry.status || "waiting";
      entry.queued = entry.queued || new Date().toISOString();
      return put(entry).then(function () { return entry; });
    });
  }

  // Ids the server has acknowledged: a page older than what this phone sent must not reuse one.
  function markSent(id, game) {
    if (!id) return Promise.resolve();
    return store("sent", "readwrite").then(function (s) {
      return promised(s.put({ id: id, game: game, at: new Date().toISOString() }));
    });
  }

  function wasSent(id) {
    return store("sent", "readonly")
      .then(function (s) { return promised(s.get(id)); })
      .then(function (found) { return !!found; });
  }

  function uuid() {
    if (scope.crypto && scope.crypto.randomUUID) return scope.crypto.randomUUID();
    var b = new Uint8Array(16);
    scope.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  // The sentence of a refusal, from the header the server puts it in (UTF-8, percent-encoded).
  function refusal(response) {
    var raw = response.headers.get("X-Muster-Refusal");
    if (!raw) return "";
    try {
      return decodeURIComponent(raw);
    } catch (e) {
      return "";
    }
  }

  // What the server holds now for the place of a refused entry, as the server renders it: the
  // entry's own fields (its form token left out) ask for the same place.
  function serverVersion(entry) {
    var query = new URLSearchParams(entry.body);
    query.delete("csrf_token");
    var url = "/games/" + encodeURIComponent(entry.game) + "/held?" + query.toString();
    // Marked a fragment request: the worker gives no offline stand-in for it.
    return scope
      .fetch(url, { credentials: "same-origin", headers: { Accept: "text/html", "HX-Request": "true" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .catch(function () { return null; });
  }

  function withLock(run) {
    var locks = scope.navigator && scope.navigator.locks;
    return locks ? locks.request(LOCK, run) : run();
  }

  // Send every waiting entry, game by game, in the order they were made.
  // Resolves to {sent, refused, unreachable, timedOut, expired, html}: html[game] is the
  // server's last answer (the #game fragment) for that game. options: csrf, the form token;
  // timeout, how long an entry waits for its answer (ms; then it is kept and the replay stops).
  function flush(options) {
    options = options || {};
    return withLock(function () {
      var result = { sent: [], refused: [], unreachable: false, timedOut: false, expired: false, html: {} };
      return list().then(function (entries) {
        var games = [];
        entries.forEach(function (e) { if (games.indexOf(e.game) < 0) games.push(e.game); });
        var chain = Promise.resolve(true);
        games.forEach(function (game) {
          var mine = entries.filter(function (e) { return e.game === game; });
          chain = chain.then(function (goOn) {
            return goOn ? sendAll(mine, options, result) : false;
          });
        });
        return chain.then(function () { return result; });
      });
    });
  }

  // Resolves to false when the server cannot be reached (stop everything), true otherwise.
  function sendAll(entries, options, result) {
    var i = 0;
    function next() {
      if (i >= entries.length) return Promise.resolve(true);
      var entry = entries[i++];
      // A refused entry, or one built on it that the player has not checked: the rest waits.
      if (entry.status === "refused" || entry.review) return Promise.resolve(true);
      return sendOne(entry, options, result).then(function (outcome) {
        if (outcome === "sent") return next();
        return outcome !== "unreachable";
      });
    }
    return next();
  }

  function sendOne(entry, options, result) {
    var body = new URLSearchParams(entry.body);
    if (options.csrf) body.set("csrf_token", options.csrf);
    var headers = { "HX-Request": "true", "X-Muster-Replay": "outbox" };
    if (options.csrf) headers["X-CSRFToken"] = options.csrf;
    // A request that hangs (a server stuck, a network that drops packets) must not hold the
    // whole outbox: it is given up after the timeout, like htmx's own, and the entry stays.
    var timeout = options.timeout || TIMEOUT;
    var controller = scope.AbortController ? new scope.AbortController() : null;
    var timedOut = false;
    var timer = controller ? setTimeout(function () { timedOut = true; controller.abort(); }, timeout) : null;
    var init = { method: "POST", body: body, credentials: "same-origin", headers: headers };
    if (controller) init.signal = controller.signal;
    return scope
      .fetch(entry.action, init)
      .then(
        function (response) {
          return response.text().then(function (text) { return { response: response, text: text }; });
        },
        function () { return null; }
      )
      .then(function (answer) {
        clearTimeout(timer);
        if (!answer) {
          result.unreachable = true;
          if (timedOut) result.timedOut = true;
          return "unreachable";
        }
        var status = answer.response.status;
        if (answer.response.ok) {
          result.sent.push(entry);
          result.html[entry.game] = answer.text;
          // Marked sent before it leaves the outbox: a page that sees it gone knows it reached Muster.
          return markSent(entry.id, entry.game).then(function () { return remove(entry.id); }).then(function () { return "sent"; });
        }
        if (status === 400 || status >= 500) {
          // An expired form or a server fault: not the rules' answer. Keep it waiting.
          if (status === 400) result.expired = true;
          entry.note = refusal(answer.response) || "Muster could not take it (" + status + "); it will be sent again.";
          return put(entry).then(function () { return "held"; });
        }
        entry.status = "refused";
        entry.reason = refusal(answer.response) || "Muster refused it (" + status + ").";
        entry.answered = new Date().toISOString();
        return serverVersion(entry)
          .then(function (html) {
            entry.held = html;
            return put(entry);
          })
          .then(function () {
            result.refused.push(entry);
            return "refused";
          });
      });
  }

  scope.MusterOutbox = {
    PAGES: PAGES,
    add: add,
    get: get,
    list: list,
    put: put,
    remove: remove,
    flush: flush,
    markSent: markSent,
    wasSent: wasSent,
    serverVersion: serverVersion,
    uuid: uuid,
    refusal: refusal
  };
})(self);
