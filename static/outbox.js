// Muster's outbox: every entry a page records, kept in IndexedDB before it is sent and until
// Muster answers it. Loaded by the pages and by the service worker (importScripts), so a
// replay can start from either; see docs/offline.md.
//
// An entry is one form as it was submitted: its event UUID, the game, the form's action and
// body, a title and the values as the player saw them, what the server's step data said of the
// form (offline.js), and a status: "waiting" until the server answers, "refused" (with the
// server's sentence, from its X-Muster-Refusal header, and what it holds now, as the server
// renders it) when the rules refuse it. Only a 4xx carrying that header is a refusal; any other
// answer (429, 408, 5xx, an expired form) keeps the entry waiting, sent again no sooner than the
// answer's Retry-After. A refused entry stays until the player dismisses it.
//
// Entries wait in queues, one per address they post to (a game's entries, its clock's taps, a
// club event's result): a queue is sent in the order it was made and stops at a refused entry;
// the other queues go on. The server's idempotency (an id it already holds changes nothing)
// makes sending an entry twice harmless.
(function (scope) {
  "use strict";

  var DB_NAME = "muster";
  var DB_VERSION = 1;
  var PAGES = "muster-pages-1";
  var LOCK = "muster-outbox";
  // How long one replayed entry may wait for an answer: htmx's own timeout (base.html).
  var TIMEOUT = 15000;
  // How long an entry waits before it is sent again after an answer that was not the rules'
  // (a server error, a proxy's timeout) and that named no Retry-After. The browser tests set
  // their own (MusterPauses.retry, ms, from a script run before the page's) so as not to wait it out.
  var RETRY = 5000;
  // The longest Retry-After honoured: a phone never sits on an entry for longer than this.
  var MOST_RETRY = 300000;
  var dbPromise = null;
  // The record (in the "sent" store, beside the ids the server acknowledged) of when the
  // database was made: no version change needed, which an open page of an older release would block.
  var CREATED = "muster:created";
  // When this phone's outbox database was made (ms), read when it is opened: a database made
  // after entries were known to wait means the phone's storage was cleared meanwhile.
  var createdAt = null;
  var closedHandlers = [];

  // The page's language (the words script the page loaded before this one). In the service
  // worker there is none: its notes are in English, with their blanks filled the same way.
  function fill(text, values) {
    return values ? text.replace(/%\((\w+)\)s/g, function (all, key) { return key in values ? String(values[key]) : all; }) : text;
  }
  function tr(text, values) {
    return scope.musterSay ? scope.musterSay(text, values) : fill(text, values);
  }
  function trn(one, many, count, values) {
    return scope.musterSayPlural ? scope.musterSayPlural(one, many, count, values) : fill(count === 1 ? one : many, values);
  }

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
        request.onupgradeneeded = function (event) {
          var db = request.result;
          if (!db.objectStoreNames.contains("outbox")) db.createObjectStore("outbox", { keyPath: "id" });
          if (!db.objectStoreNames.contains("sent")) {
            var sent = db.createObjectStore("sent", { keyPath: "id" });
            // A database made just now says when (one without the record is older: its age is 0).
            if (event.oldVersion === 0) sent.put({ id: CREATED, at: Date.now() });
          }
        };
        request.onsuccess = function () {
          var db = request.result;
          // Storage cleared (or evicted) under an open page closes the connection: open anew.
          db.onclose = function () {
            dbPromise = null;
            closedHandlers.forEach(function (run) { run(); });
          };
          db.onversionchange = function () { db.close(); dbPromise = null; };
          var read = db.transaction("sent", "readonly").objectStore("sent").get(CREATED);
          read.onsuccess = function () {
            createdAt = read.result ? read.result.at : 0;
            resolve(db);
          };
          read.onerror = function () { createdAt = 0; resolve(db); };
        };
        request.onerror = function () { dbPromise = null; reject(request.error); };
      });
    }
    return dbPromise;
  }

  function store(name, mode) {
    return open().then(function (db) {
      try {
        return db.transaction(name, mode).objectStore(name);
      } catch (e) {
        // A connection closed under the page (the browser may close an idle one): open anew, once.
        dbPromise = null;
        return open().then(function (again) { return again.transaction(name, mode).objectStore(name); });
      }
    });
  }

  // The queue an entry waits in: the address it posts to.
  function queueOf(entry) {
    return entry.queue || entry.action || entry.game;
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
      entry.queue = queueOf(entry);
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

  // When this phone's outbox was made (ms since 1970; 0 when older than that record).
  function created() {
    return open().then(function () { return createdAt || 0; });
  }

  // Run ``handler`` when the open outbox is closed under the page (its storage was cleared).
  function onClosed(handler) {
    closedHandlers.push(handler);
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

  // Whether an answer is the rules refusing an entry: a 4xx with Muster's sentence. A 400 is an
  // expired form, never a judgement; anything else (429, 408, a proxy's page, 5xx) is sent again.
  function isRefusal(status, sentence) {
    return status > 400 && status < 500 && !!sentence;
  }

  // When an answer that is not a refusal lets the entry be sent again (ms since 1970): its
  // Retry-After (seconds or a date), else a few seconds; never further off than MOST_RETRY.
  function retryAt(headers, now) {
    now = now || Date.now();
    var raw = headers && headers.get ? headers.get("Retry-After") : null;
    var wait = pause("retry", RETRY);
    if (raw) {
      var seconds = Number(raw);
      if (isFinite(seconds) && seconds >= 0) wait = seconds * 1000;
      else if (isFinite(Date.parse(raw))) wait = Date.parse(raw) - now;
    }
    return now + Math.min(Math.max(wait, 0), MOST_RETRY);
  }

  // A pause of the page's: ``fallback`` ms, unless a test set MusterPauses[name] (ms) first.
  function pause(name, fallback) {
    var set = scope.MusterPauses ? Number(scope.MusterPauses[name]) : NaN;
    return set >= 0 ? set : fallback;
  }

  // What the phone says of an entry Muster answered without judging it, in the player's words.
  // ``waits``: said of all that waits on the phone (the page's sync line), not of one entry.
  function heldNote(status, at, waits) {
    var count = Math.max(1, Math.ceil((at - Date.now()) / 1000));
    var values = { count: count };
    if (waits) return trn("Muster is busy just now: what waits on this phone is sent again in %(count)s second.", "Muster is busy just now: what waits on this phone is sent again in %(count)s seconds.", count, values);
    if (status === 429 || status === 503) return trn("Muster is busy just now; it is sent again in %(count)s second.", "Muster is busy just now; it is sent again in %(count)s seconds.", count, values);
    if (status === 408 || status === 504) return trn("The answer took too long; it is sent again in %(count)s second.", "The answer took too long; it is sent again in %(count)s seconds.", count, values);
    return trn("Muster could not take it just now; it is sent again in %(count)s second.", "Muster could not take it just now; it is sent again in %(count)s seconds.", count, values);
  }

  // A page as the phone may keep it: the parts the server marked as never kept (the links that
  // carry a seat's or the game's edit token) left out.
  function keepable(html) {
    return String(html).replace(/<!--not-kept-->[\s\S]*?<!--\/not-kept-->/g, "");
  }

  // What the server holds now for the place of a refused entry, as the server renders it: the
  // entry's own fields (its form token left out) ask for the same place.
  function serverVersion(entry) {
    if (!entry.game) return Promise.resolve(null);
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

  // Send every waiting entry, queue by queue, each in the order it was made.
  // Resolves to {sent, refused, held, unreachable, timedOut, expired, busy, retryAt, html}:
  // html[queue] is the server's last answer for that queue (a #game fragment, the clock strip, a
  // page); retryAt the soonest time (ms) a held entry may be sent again. options: csrf, the form
  // token; timeout, how long an entry waits for its answer (ms; then it is kept and the replay
  // stops); skip, ids another request of this page is sending now (their queue waits for it).
  function flush(options) {
    options = options || {};
    return withLock(function () {
      var result = { sent: [], refused: [], held: [], unreachable: false, timedOut: false, expired: false, busy: false, retryAt: 0, html: {} };
      return list().then(function (entries) {
        var queues = [];
        entries.forEach(function (e) { if (queues.indexOf(queueOf(e)) < 0) queues.push(queueOf(e)); });
        var chain = Promise.resolve(true);
        queues.forEach(function (queue) {
          var mine = entries.filter(function (e) { return queueOf(e) === queue; });
          chain = chain.then(function (goOn) {
            return goOn ? sendAll(mine, options, result) : false;
          });
        });
        return chain.then(function () { return result; });
      });
    });
  }

  function later(at) {
    return at && at > Date.now();
  }

  // Resolves to false when nothing more should be sent now (the server cannot be reached or
  // asked to wait), true otherwise.
  function sendAll(entries, options, result) {
    var skip = options.skip || [];
    var i = 0;
    function next() {
      if (i >= entries.length) return Promise.resolve(true);
      var entry = entries[i++];
      // A refused entry, or one built on it that the player has not checked: the rest waits.
      if (entry.status === "refused" || entry.review) return Promise.resolve(true);
      // Sent just now by the page itself, or not to be sent before its Retry-After: so waits the rest.
      if (skip.indexOf(entry.id) >= 0) return Promise.resolve(true);
      if (later(entry.retryAt)) {
        if (!result.retryAt || entry.retryAt < result.retryAt) result.retryAt = entry.retryAt;
        return Promise.resolve(true);
      }
      return sendOne(entry, options, result).then(function (outcome) {
        if (outcome === "sent") return next();
        return outcome !== "unreachable" && outcome !== "busy";
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
        var queue = queueOf(entry);
        if (answer.response.ok) {
          result.sent.push(entry);
          result.html[queue] = answer.text;
          // Marked sent before it leaves the outbox: a page that sees it gone knows it reached Muster.
          return markSent(entry.id, entry.game).then(function () { return remove(entry.id); }).then(function () { return "sent"; });
        }
        var sentence = refusal(answer.response);
        if (!isRefusal(status, sentence)) return hold(entry, answer.response, result);
        entry.status = "refused";
        entry.reason = sentence;
        entry.answered = new Date().toISOString();
        delete entry.note;
        delete entry.retryAt;
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

  // An answer that is not the rules' (an expired form, a busy or failing server, a proxy's
  // page): the entry stays waiting and is sent again, no sooner than the answer allows.
  function hold(entry, response, result) {
    var status = response.status;
    var busy = status === 429 || status === 503 || !!response.headers.get("Retry-After");
    if (status === 400) result.expired = true; // a fresh form token may be all it needs
    entry.retryAt = status === 400 ? 0 : retryAt(response.headers);
    entry.note = status === 400 ? tr("The form had expired; it is sent again with a fresh one.") : heldNote(status, entry.retryAt);
    if (entry.retryAt && (!result.retryAt || entry.retryAt < result.retryAt)) result.retryAt = entry.retryAt;
    result.held.push(entry);
    if (busy) result.busy = true;
    return put(entry).then(function () { return busy ? "busy" : "held"; });
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
    created: created,
    onClosed: onClosed,
    serverVersion: serverVersion,
    queueOf: queueOf,
    isRefusal: isRefusal,
    retryAt: retryAt,
    pause: pause,
    heldNote: heldNote,
    keepable: keepable,
    uuid: uuid,
    refusal: refusal
  };
})(self);
