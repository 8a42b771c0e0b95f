// Muster offline: the service worker, the outbox on the game page, and the status line.
// How it fits together is in docs/offline.md. The pages work without this file.
//
// Every entry a form records goes into the outbox (outbox.js) before it is sent, and leaves it
// only on Muster's answer: sent at once by htmx when the connection is up and nothing waits
// before it, else kept and sent in order by the replay. Nothing here knows a game: it follows
// the forms and the step data the server renders.
(function () {
  "use strict";
  // The page's language (the words script before this one); English if it could not load.
  var tr = window.musterSay || function (text) { return text; };
  var trn = window.musterSayPlural || function (one, many, count) { return count === 1 ? one : many; };
  var Outbox = window.MusterOutbox;
  var EVENTS = /\/games\/([^/]+)\/(?:events|clock)$/; // a game's entries and its clock taps
  var SYNC_TAG = "muster-outbox";
  var MARK = "muster_outbox"; // a cookie: how many entries waited, and when (outlives a cleared storage)
  var waitingTotal = 0;
  var pristineMaps = new WeakMap();
  // The step form each #game came with from the server, before a waiting entry moved #step on.
  var pristineSteps = new WeakMap();
  // The held entry being edited, and its editor: kept across re-renders of the outbox.
  var editing = { id: null, box: null };
  var reloading = false;
  var waitingWorker = null;
  var cacheChain = Promise.resolve();
  var flushing = null;
  // Entries this page is sending itself, through htmx, right now: id -> {queue, game, form, body}.
  var live = {};
  // How many entries each queue (a form's address) holds in the outbox, as this page last read it.
  var queued = {};
  // Ids being put in the outbox now: a second tap on the same form is not a second entry.
  var keeping = {};
  // The form htmx is being handed back, with the body the outbox holds for it.
  var resubmitting = null;
  var channel = "BroadcastChannel" in window ? new BroadcastChannel("muster-outbox") : null;

  // --- small DOM helpers ----------------------------------------------------------------
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.append(child);
    }
    return node;
  }

  function cleanText(node) {
    var copy = node.cloneNode(true);
    copy.querySelectorAll(".hint, .tag, select, input, textarea, button").forEach(function (n) { n.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function params(entry) { return new URLSearchParams(entry.body); }
  function words(text) { return text ? text.split(" ").filter(Boolean) : []; }
  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function parse(html) { return new DOMParser().parseFromString(html, "text/html"); }
  function version(node) { return Number(node && node.dataset.version) || 0; }
  function queueOf(entry) { return Outbox.queueOf(entry); }

  // --- the status line under the top bar: offline, new version, sync ---------------------
  var messages = {};
  var fading = null;
  function say(key, text, action) {
    messages[key] = { text: text, action: action };
    paintStatus();
    // What was just sent or kept is news for a moment; being offline or an update is not.
    if (key === "sync") {
      clearTimeout(fading);
      fading = setTimeout(function () { unsay("sync"); }, 8000);
    }
  }
  function unsay(key) {
    if (messages[key]) {
      delete messages[key];
      paintStatus();
    }
  }
  function paintStatus() {
    var box = document.getElementById("app-status");
    if (!box) return;
    box.replaceChildren();
    Object.keys(messages).forEach(function (key) {
      var m = messages[key];
      var line = el("p", { class: "app-note note-" + key }, m.text);
      if (m.action) {
        var button = el("button", { type: "button", class: "small primary" }, m.action.label);
        button.addEventListener("click", m.action.run);
        line.append(" ", button);
      }
      box.append(line);
    });
  }

  function showNetwork() {
    if (navigator.onLine) unsay("net");
    else say("net", tr("Offline. What you record is kept on this phone and sent when Muster can be reached."));
  }

  // --- the service worker -----------------------------------------------------------------
  function offerUpdate(worker) {
    waitingWorker = worker;
    say("update", tr("A new version of Muster is ready."), {
      label: tr("Reload to update"),
      run: function () {
        reloading = true;
        worker.postMessage({ type: "skip-waiting" });
      }
    });
  }

  function pageUrl() { return location.pathname + location.search; }
  function controlled() { return "serviceWorker" in navigator && !!navigator.serviceWorker.controller; }

  // Keep this page's stored copy in step with the server (after each entry it accepts), so
  // an offline reload shows what the server holds. Requests are chained to stay in order.
  function refreshStoredPage() {
    if (!controlled()) return cacheChain;
    cacheChain = cacheChain.then(fetchPage);
    return cacheChain;
  }
  function fetchPage() {
    return fetch(pageUrl(), { credentials: "same-origin", headers: { Accept: "text/html", "X-Muster-Refresh": "1" } })
      .then(function (response) { return response.text(); }) // the worker keeps it; read it to end the request
      .catch(function () {});
  }

  // The server accepted an entry and answered with the new #game: put it into the stored copy
  // of the page at once (no second request, so it holds even if the network drops now), without
  // the parts never kept (the links carrying a seat's or the game's token).
  function storeGame(fragment) {
    if (!window.caches || !controlled()) return cacheChain;
    var key = location.origin + pageUrl();
    cacheChain = cacheChain
      .then(function () { return caches.open(Outbox.PAGES); })
      .then(function (cache) {
        return cache.match(key).then(function (stored) {
          if (!stored) {
            return fetchPage().then(function () {
              var step = /data-step="([^"]*)"/.exec(fragment);
              if (step) markStored(step[1]);
            });
          }
          return stored.text().then(function (text) {
            var doc = parse(text);
            var fresh = parse(Outbox.keepable(fragment)).getElementById("game");
            var old = doc.getElementById("game");
            if (!fresh || !old) return null;
            // A copy newer than this answer (an answer that came late) is kept as it is.
            if (version(old) > version(fresh)) return null;
            old.replaceWith(doc.importNode(fresh, true));
            var html = Outbox.keepable("<!doctype html>\n" + doc.documentElement.outerHTML);
            return cache
              .put(key, new Response(html, { headers: stored.headers }))
              .then(function () { markStored(fresh.dataset.step); });
          });
        });
      })
      .catch(function () {});
    return cacheChain;
  }

  // A game page says when this phone keeps a copy of it at the step it shows.
  var storedStep = null;
  function markStored(step) {
    storedStep = step;
    var game = document.getElementById("game");
    var note = game && game.querySelector("#offline-ready");
    if (!note || game.dataset.step !== step) return;
    note.textContent = tr("Kept on this phone: this game can go on offline.");
    note.dataset.step = step;
    note.hidden = false;
  }

  // The first time the worker takes control, this page was loaded before it: store it now.
  // So is a page htmx moved to (a boosted link, or the new-game form whose answer is a
  // redirect the worker never sees): kept as soon as it shows, not at the first entry.
  var keptUrl = null;
  function keepThisPage() {
    if (!window.caches || !controlled()) return;
    keptUrl = pageUrl();
    caches.match(location.href, { cacheName: Outbox.PAGES }).then(function (found) {
      return found ? null : refreshStoredPage();
    }).then(function () {
      var game = document.getElementById("game"); // read now: a swap may have landed meanwhile
      markStored(game ? game.dataset.step : null);
    });
  }
  function keepMovedPage() {
    if (pageUrl() !== keptUrl) keepThisPage();
  }

  function registerWorker() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker
      .register("/sw.js", { scope: "/" })
      .then(function (reg) {
        if (reg.waiting && navigator.serviceWorker.controller) offerUpdate(reg.waiting);
        reg.addEventListener("updatefound", function () {
          var worker = reg.installing;
          if (!worker) return;
          worker.addEventListener("statechange", function () {
            if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
          });
        });
        document.addEventListener("visibilitychange", function () {
          if (document.visibilityState === "visible") reg.update().catch(function () {});
        });
      })
      .catch(function () {});
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (reloading) location.reload();
      else keepThisPage();
    });
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type === "outbox") afterFlush({ games: data.games || [], sent: data.sent, refused: data.refused, entries: data.entries });
    });
    keepThisPage();
  }

  function requestBackgroundSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready
      .then(function (reg) { return reg.sync ? reg.sync.register(SYNC_TAG) : null; })
      .catch(function () {});
  }

  // The page sends an entry itself: should it be closed or reloaded before the answer, the
  // worker sends it (a little after the page's own request would have given up).
  function tellWorker(id) {
    if (controlled()) navigator.serviceWorker.controller.postMessage({ type: "sending", ids: [id], timeout: timeout() });
  }

  // --- the phone's storage: kept for good, and missed if it was cleared ------------------------
  var askedPersist = false;
  function askPersistence() {
    var storage = navigator.storage;
    if (askedPersist || !storage || !storage.persist) return;
    askedPersist = true;
    storage.persisted().then(function (yes) { return yes ? true : storage.persist(); }).catch(function () {});
  }

  function readMark() {
    var found = new RegExp("(?:^|; )" + MARK + "=(\\d+)\\.(\\d+)").exec(document.cookie);
    return found ? { count: Number(found[1]), at: Number(found[2]) } : null;
  }
  function writeMark(count) {
    var mark = readMark();
    if (count > 0 && (!mark || mark.count !== count)) {
      document.cookie = MARK + "=" + count + "." + Date.now() + "; path=/; max-age=31536000; samesite=lax";
    } else if (!count && mark) {
      document.cookie = MARK + "=; path=/; max-age=0; samesite=lax";
    }
  }
  // Entries waited on this phone, and the outbox they waited in was made again since: the
  // phone's storage was cleared (by the player or the browser) before Muster had them.
  function checkStorage(count) {
    var mark = readMark();
    if (!mark || !mark.count || count) return Promise.resolve(writeMark(count));
    return Outbox.created().then(function (made) {
      if (made > mark.at) {
        unsay("sync"); // news of what was kept is untrue now
        say("gone", trn(
          "%(count)s entry kept on this phone to send to Muster is gone: the phone's storage was cleared before Muster had it. Check the game and record again what it does not show.",
          "%(count)s entries kept on this phone to send to Muster are gone: the phone's storage was cleared before Muster had them. Check the game and record again what it does not show.",
          mark.count, { count: mark.count }));
      }
      writeMark(0);
    });
  }
  Outbox.onClosed(function () {
    if (waitingTotal || Object.keys(live).length) render(false);
  });

  // --- forms that record an entry -----------------------------------------------------------
  function actionPath(form) { return new URL(form.getAttribute("action") || "", location.href).pathname; }
  // A form whose submissions go through the outbox: a game's entries and clock taps, and any
  // form the server marks data-outbox (a club event's result to confirm).
  function isOutboxForm(form) {
    if (!form || form.tagName !== "FORM" || (form.getAttribute("method") || "get").toLowerCase() !== "post") return false;
    return form.hasAttribute("data-outbox") || EVENTS.test(actionPath(form));
  }
  function gameOf(form) {
    if (!form || form.tagName !== "FORM") return null;
    var match = EVENTS.exec(actionPath(form));
    return match ? decodeURIComponent(match[1]) : null;
  }
  // The server marks the form that takes back the last entry.
  function isUndo(form) { return form.hasAttribute("data-undo"); }
  // Whether entries of this queue wait, or are on their way; ``unanswered``: not counting one
  // whose answer is already on the screen and that is only leaving the outbox.
  function waitsIn(queue, unanswered) {
    if (queued[queue]) return true;
    return Object.keys(live).some(function (id) {
      return live[id].queue === queue && !(unanswered && live[id].answered);
    });
  }

  function labelOf(form, field) {
    if (field.id) {
      var label = form.querySelector('label[for="' + CSS.escape(field.id) + '"]');
      if (label) return cleanText(label);
    }
    var wrap = field.closest("label");
    if (wrap) return cleanText(wrap);
    return field.getAttribute("aria-label") || field.name;
  }
  function legendOf(form, field) {
    var set = field.closest("fieldset");
    var legend = set && form.contains(set) ? set.querySelector("legend") : null;
    return legend ? cleanText(legend) : "";
  }
  function join(label, value) {
    if (!label) return value;
    return /[?:]$/.test(label) ? label + " " + value : tr("%(label)s: %(value)s", { label: label, value: value });
  }

  // The values as the player saw them on the form, one line each. A form the server names
  // (data-entry: "Play Caltrops") says what its button did in that name.
  function describe(form, submitter) {
    var lines = [];
    if (form.dataset.summary) lines.push(form.dataset.summary);
    if (submitter && submitter.name && !form.dataset.entry) {
      var question = form.querySelector("p");
      lines.push(join(question ? cleanText(question) : "", submitter.textContent.trim()));
    }
    Array.prototype.forEach.call(form.elements, function (f) {
      if (!f.name || f.disabled || f.tagName === "BUTTON" || f.tagName === "FIELDSET") return;
      if (["hidden", "submit", "button", "reset"].indexOf(f.type) >= 0) return;
      if (f.type === "radio" || f.type === "checkbox") {
        if (f.checked) lines.push(join(legendOf(form, f), cleanText(f.closest("label") || f)));
      } else if (f.tagName === "SELECT") {
        var option = f.options[f.selectedIndex];
        lines.push(join(labelOf(form, f), option ? option.textContent.trim() : ""));
      } else if (f.value !== "" && !(f.type === "number" && f.value === "0")) {
        lines.push(join(labelOf(form, f), f.value));
      }
    });
    return lines;
  }
  // What an entry is, in the server's words: the name it gave the form, else its heading.
  function titleOf(form) {
    if (form.dataset.entry) return form.dataset.entry;
    if (form.dataset.summary) return tr("Dice roll");
    var own = form.querySelector("h2") || form.querySelector("h3");
    if (own) return cleanText(own);
    var details = form.closest("details");
    var summary = details && details.querySelector("summary");
    if (summary) return cleanText(summary);
    var heading = (form.closest("section, dialog") || form).querySelector("h2");
    return heading ? cleanText(heading) : tr("An entry");
  }
  // What the player entered, as a refused or waiting entry shows it: its lines, else its name.
  function entered(entry) {
    return entry.lines && entry.lines.length ? entry.lines : [entry.title];
  }

  // What the server's step data says about a submitted form (docs/offline.md): its step, the
  // steps its choice leads to, the block in play once it waits, the part of its step it is.
  function stepOf(form, data) {
    var d = form.dataset;
    var found = { step: d.step || null };
    if (!d.step) return found;
    if (d.inPlay !== undefined) found.inPlay = d.inPlay;
    if (d.parts !== undefined) {
      found.parts = words(d.parts);
      found.part = d.part;
    }
    if (d.choice) {
      var plans = {};
      try { plans = JSON.parse(d.plans || "{}"); } catch (e) { plans = {}; }
      var value = data.get(d.choice);
      found.plan = value !== null && Array.isArray(plans[value]) ? plans[value] : [];
    }
    return found;
  }

  // The once-only choices a form takes: its own mark, each ticked box marked so, and for a
  // select marked so, its mark followed by the value chosen (empty: nothing chosen).
  function takenBy(form) {
    var keys = form.dataset.once ? [form.dataset.once] : [];
    form.querySelectorAll("[data-once]").forEach(function (node) {
      if (node.disabled) return;
      if (node.tagName === "SELECT") {
        if (node.value) keys.push(node.dataset.once + node.value);
      } else if (node.checked) {
        keys.push(node.dataset.once);
      }
    });
    return keys;
  }

  function entryOf(form, data, submitter) {
    var entry = stepOf(form, data);
    entry.id = data.get("id");
    entry.game = gameOf(form);
    entry.action = actionPath(form);
    entry.queue = entry.action;
    entry.body = data.toString();
    entry.title = titleOf(form);
    entry.lines = describe(form, submitter);
    entry.once = takenBy(form);
    return entry;
  }

  // --- keeping an entry, then sending it ------------------------------------------------------
  // Put a submitted form in the outbox; then send it now (``now``: online, nothing of its queue
  // waiting before it) through htmx, or leave it waiting, shown as such, for the replay.
  function keep(form, body, submitter, now) {
    var data = new URLSearchParams(body);
    var id = data.get("id") || Outbox.uuid();
    keeping[id] = true;
    return Outbox.get(id)
      .then(function (already) {
        if (already) return null; // the same submission twice: it is kept once
        return Outbox.wasSent(id).then(function (sent) {
          // A page older than what this phone already sent reuses an id: make a new one.
          if (sent) id = Outbox.uuid();
          data.set("id", id);
          return Outbox.add(entryOf(form, data, submitter));
        });
      })
      .then(
        function (entry) {
          delete keeping[data.get("id")];
          if (!entry) return null;
          askPersistence();
          queued[entry.queue] = (queued[entry.queue] || 0) + 1;
          document.dispatchEvent(new CustomEvent("muster:outbox", { detail: { added: entry } }));
          broadcast();
          if (now && navigator.onLine && form.isConnected) return sendLive(form, entry, submitter);
          return nowWaiting(entry, form);
        },
        function () {
          delete keeping[data.get("id")];
          // No outbox on this phone (storage off): the form goes to Muster as it would without it.
          if (now && form.isConnected) resubmit(form, submitter, null);
        }
      );
  }

  // Hand the form back to htmx, with the body the outbox holds (the same id, the same values).
  function resubmit(form, submitter, body) {
    resubmitting = { form: form, body: body };
    try {
      form.requestSubmit(submitter && submitter.form === form ? submitter : undefined);
    } finally {
      resubmitting = null;
    }
  }

  function sendLive(form, entry, submitter) {
    live[entry.id] = { queue: entry.queue, game: entry.game, form: form, body: entry.body, title: entry.title };
    tellWorker(entry.id);
    // Sent: the step is the player's no more; however late the answer, it may replace it.
    var step = form.closest("#step");
    if (step) delete step.dataset.dirty;
    delete form.dataset.dirty;
    resubmit(form, submitter, entry.body);
    // htmx answers every request (after:request or error); should it drop one, it waits here.
    setTimeout(function () {
      if (live[entry.id] && !live[entry.id].answered) failedLive(entry.id);
    }, timeout() + 1000);
  }

  // An entry that is to wait (offline, behind others, or htmx got no answer): say so, let the
  // step move on, and have it sent when Muster can be reached.
  function nowWaiting(entry, form) {
    waitingTotal += 1;
    requestBackgroundSync();
    document.dispatchEvent(new CustomEvent("muster:queued", { detail: { form: form, entry: entry } }));
    freshForm(form);
    return Outbox.list(entry.game || undefined).then(function (entries) {
      var mine = entries.filter(function (e) { return queueOf(e) === entry.queue; });
      // Behind a refused entry (or one still to check) it waits for the player, not the network.
      var refused = mine.some(function (e) { return e.status === "refused"; });
      var review = mine.some(function (e) { return e.review; });
      var kept = { entry: entry.title, note: entry.note };
      var said = tr("Kept on this phone: %(entry)s. It will be sent when Muster can be reached.", kept);
      if (refused) said = tr("Kept on this phone: %(entry)s. It is held behind the entry Muster refused: see Not recorded in the game.", kept);
      else if (review) said = tr("Kept on this phone: %(entry)s. It waits behind the entries to check first, in the game.", kept);
      else if (entry.note) said = tr("Kept on this phone: %(entry)s. %(note)s", kept);
      say("sync", said);
      return render(true);
    }).then(function () {
      if (navigator.onLine) flushNow();
    });
  }

  // A form kept in the outbox that stays on screen (not a step, which moves on by itself) is
  // ready for the next entry: emptied, with a new id (the same id twice is one entry).
  function freshForm(form) {
    if (!form || !form.isConnected || form.closest("#step") || form.closest("#clock")) return;
    form.reset();
    var id = form.querySelector('input[name="id"]');
    if (id) {
      id.value = Outbox.uuid();
      id.defaultValue = id.value;
    }
    delete form.dataset.dirty;
  }

  function liveOf(ctx) {
    var body = ctx && ctx.request && ctx.request.body;
    var id = body && body.get ? body.get("id") : null;
    return id && live[id] && !live[id].answered ? id : null;
  }

  // htmx got no answer for an entry it was sending: it waits in the outbox like one made offline.
  function failedLive(id, response) {
    var info = live[id];
    delete live[id];
    return Outbox.get(id).then(function (entry) {
      if (!entry) return null;
      if (!response) return nowWaiting(entry, info.form);
      var status = response.status;
      if (status === 400) {
        entry.retryAt = 0;
        entry.note = tr("The form had expired; it is sent again with a fresh one.");
      } else {
        entry.retryAt = Outbox.retryAt(response.headers);
        entry.note = Outbox.heldNote(status, entry.retryAt);
      }
      return Outbox.put(entry).then(function () { return nowWaiting(entry, info.form); });
    });
  }

  // Offline, or behind entries of the same queue still waiting, a form goes to the outbox and
  // waits; otherwise it goes to the outbox and htmx sends it at once.
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!isOutboxForm(form)) return;
      if (resubmitting && resubmitting.form === form) return; // handed back to htmx: it sends it
      if (form.dataset.editOf) {
        // The editor of a held entry: its new values replace the entry's, nothing is posted.
        event.preventDefault();
        event.stopPropagation();
        saveEdit(form, event.submitter);
        return;
      }
      var queue = actionPath(form);
      var behind = waitsIn(queue);
      if (isUndo(form)) {
        // Undo needs Muster: htmx sends it, even the moment the entry before it is shown (that
        // one is Muster's already, and the undo names the entry it takes back).
        if (navigator.onLine && !waitsIn(queue, true)) return;
        event.preventDefault();
        event.stopPropagation();
        undoWaiting(queue);
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      var body = new FormData(form, event.submitter || undefined);
      if (keeping[body.get("id")]) return; // a second tap while the first is being kept
      keep(form, body, event.submitter, navigator.onLine && !behind);
    },
    true
  );

  // The form handed back to htmx is sent with the body the outbox holds.
  document.addEventListener("htmx:config:request", function (event) {
    var ctx = event.detail && event.detail.ctx;
    if (!resubmitting || !resubmitting.body || !ctx || !ctx.request) return;
    var form = ctx.request.form || (ctx.sourceElement && ctx.sourceElement.closest && ctx.sourceElement.closest("form"));
    if (form !== resubmitting.form) return;
    var body = new FormData();
    new URLSearchParams(resubmitting.body).forEach(function (value, name) { body.append(name, value); });
    ctx.request.body = body;
  });

  // The request failed without an answer (no network, server down, timeout): it waits.
  document.addEventListener("htmx:error", function (event) {
    var ctx = event.detail && event.detail.ctx;
    var id = liveOf(ctx);
    if (id) {
      failedLive(id);
      return;
    }
    var source = event.target;
    var form = source && source.closest ? source.closest("form") : null;
    if (form && isOutboxForm(form) && ctx && ctx.request && ctx.request.body && ctx.request.method === "POST") {
      if (isUndo(form)) {
        say("error", tr("Muster could not be reached, so nothing was undone. Try again when the connection is back."));
        return;
      }
      // An entry htmx sent that the outbox could not take first (its storage failed a moment):
      // it waits now, as any entry with no answer does.
      keep(form, ctx.request.body, ctx.request.submitter, false);
      return;
    }
    // A tap that needed the server says so; a screen refreshing itself on a timer does not nag.
    var tapped = ctx && ctx.sourceEvent && /^(click|submit|change|input)$/.test(ctx.sourceEvent.type);
    if (tapped) say("error", tr("This needs Muster, which cannot be reached now. Try again when the connection is back."));
    else if (navigator.onLine) say("error", tr("Muster could not be reached. Check the connection and try again."));
  });

  // An answer to an entry that is not the rules' (a busy server's 429, a proxy's 408, a server
  // fault, an expired form) is not shown in place of the game: the entry waits and is sent again.
  // A boosted link that answers with a PDF or a text file is opened as a download instead.
  document.addEventListener("htmx:before:response", function (event) {
    var ctx = event.detail && event.detail.ctx;
    if (!ctx || !ctx.response || !ctx.request) return;
    var id = liveOf(ctx);
    if (id) {
      var status = ctx.response.status;
      if (status >= 400 && !Outbox.isRefusal(status, Outbox.refusal(ctx.response))) {
        event.preventDefault();
        failedLive(id, ctx.response);
      }
      return;
    }
    if (ctx.request.method !== "GET") return;
    var type = ctx.response.headers.get("Content-Type") || "";
    if (ctx.request.headers["HX-Boosted"] && type && type.indexOf("text/html") !== 0) {
      event.preventDefault();
      location.assign(ctx.response.raw.url || ctx.request.action);
    }
  });

  document.addEventListener("htmx:after:request", function (event) {
    var ctx = event.detail && event.detail.ctx;
    if (!ctx || !ctx.response) return;
    unsay("error");
    var source = event.target;
    var form = source && source.closest ? source.closest("form") : null;
    var id = liveOf(ctx);
    if (id) {
      answeredLive(id, ctx);
      return;
    }
    var game = gameOf(form);
    if (game && ctx.response.status === 200 && ctx.request.body && ctx.request.body.get) {
      Outbox.markSent(ctx.request.body.get("id"), game);
      if (typeof ctx.text === "string" && ctx.text.indexOf('id="game"') >= 0) storeGame(ctx.text);
      else refreshStoredPage();
    }
  });

  // Muster answered an entry htmx sent: recorded, it leaves the outbox; refused, htmx shows the
  // server's page with its sentence where the form was, and it leaves the outbox too (if that
  // screen is gone meanwhile, it stays, marked Not recorded, with the sentence).
  function answeredLive(id, ctx) {
    var info = live[id];
    // Still this page's own until it has left the outbox: a render meanwhile (the swap's) must
    // not count it as waiting on top of the server's answer, which holds it.
    info.answered = true;
    var status = ctx.response.status;
    var text = typeof ctx.text === "string" ? ctx.text : "";
    var shown = !ctx.target || ctx.target.isConnected;
    var done;
    var sent = null;
    if (status < 400) {
      done = Outbox.get(id).then(function (entry) {
        sent = entry;
        return Outbox.markSent(id, info.game);
      }).then(function () { return Outbox.remove(id); }).then(function () {
        if (text.indexOf('id="game"') >= 0) {
          storeGame(text);
          // htmx drops an answer whose target was replaced meanwhile (the game followed another phone).
          var game = document.getElementById("game");
          var fresh = shown ? null : parse(text).getElementById("game");
          if (game && fresh && fresh.dataset.game === game.dataset.game) return mergeGame(game, fresh);
        } else if (info.game) {
          refreshStoredPage();
        }
        return null;
      });
    } else if (shown) {
      done = Outbox.remove(id);
    } else {
      done = Outbox.get(id).then(function (entry) {
        if (!entry) return null;
        entry.status = "refused";
        entry.reason = Outbox.refusal(ctx.response);
        entry.answered = new Date().toISOString();
        return Outbox.serverVersion(entry).then(function (held) {
          entry.held = held;
          return Outbox.put(entry);
        });
      });
    }
    return done
      .catch(function () {})
      .then(function () {
        delete live[id];
        broadcast(status < 400 && info.game ? { sent: [info.game], entries: sent ? [sent] : [] } : {});
        return render(false);
      })
      .then(function () {
        // Entries made while this one was on its way wait behind it: their turn now.
        if (waitsIn(info.queue) && navigator.onLine) flushNow();
      });
  }

  function undoWaiting(queue) {
    return Outbox.list().then(function (entries) {
      var waiting = entries.filter(function (e) { return queueOf(e) === queue && e.status !== "refused" && !live[e.id]; });
      if (!waiting.length) {
        var sending = Object.keys(live).filter(function (id) { return live[id].queue === queue && !live[id].answered; }).pop();
        // Online, the player's last entry still on its way: which entry an Undo takes back is
        // known once Muster has answered it (the answer brings that entry's own Undo).
        if (sending && navigator.onLine) say("error", tr("Still waiting for Muster's answer to %(entry)s. Undo it once the answer shows.", { entry: live[sending].title }));
        else say("error", tr("Undo needs Muster: that entry is already recorded there. Try again when the connection is back."));
        return;
      }
      var last = waiting[waiting.length - 1];
      return Outbox.remove(last.id).then(function () {
        broadcast();
        say("sync", tr("Removed from this phone before it was sent: %(entry)s.", { entry: last.title }));
        return render(true);
      });
    });
  }

  // --- replaying the outbox -----------------------------------------------------------------
  // htmx's own timeout for a request (base.html): a replayed entry waits no longer.
  function timeout() {
    var config = window.htmx && htmx.config;
    return (config && config.defaultTimeout) || 15000;
  }
  function seconds() { return Math.ceil(timeout() / 1000); }

  // Sent again when Muster said it may be (Retry-After), or after a pause when it did not say.
  var retryTimer = null;
  function retryAt(at) {
    clearTimeout(retryTimer);
    if (!at) return;
    retryTimer = setTimeout(function () {
      retryTimer = null;
      if (navigator.onLine) flushNow();
    }, Math.max(0, at - Date.now()) + 100);
  }

  function flushNow() {
    if (flushing) {
      say("sending", tr("Already sending to Muster: an entry waits up to %(count)s s for its answer.", { count: seconds() }));
      return flushing;
    }
    // Its own line, gone when the replay ends: news of what was sent (the worker's too) stays.
    if (waitingTotal) say("sending", tr("Sending what waits on this phone to Muster…"));
    var options = function (token) { return { csrf: token, timeout: timeout(), skip: Object.keys(live) }; };
    flushing = Outbox.flush(options(csrf()))
      .then(function (result) {
        if (!result.expired) return result;
        // The page's form token has expired: ask the server for a fresh one and try again.
        return fetch("/offline", { credentials: "same-origin", headers: { Accept: "text/html" }, cache: "no-store" })
          .then(function (r) { return r.text(); })
          .then(function (html) {
            var match = /name="csrf-token" content="([^"]+)"/.exec(html);
            return match ? Outbox.flush(options(match[1])) : result;
          })
          .catch(function () { return result; });
      })
      .then(function (result) {
        var games = result.sent.concat(result.refused).map(function (e) { return e.game; }).filter(Boolean);
        if (result.timedOut) say("sync", tr("Muster did not answer within %(count)s s. What you recorded stays on this phone and is sent again.", { count: seconds() }));
        else if (result.busy && result.retryAt) say("sync", Outbox.heldNote(429, result.retryAt, true));
        else if (result.unreachable && !games.length) say("sync", tr("Muster could not be reached. What you recorded stays on this phone."));
        retryAt(result.retryAt);
        // Games this page does not show had entries sent: their kept copies are brought up to date.
        var shown = document.getElementById("game");
        var others = result.sent.map(function (e) { return e.game; }).filter(function (g, i, all) {
          return g && all.indexOf(g) === i && !(shown && shown.dataset.game === g);
        });
        if (others.length && controlled()) navigator.serviceWorker.controller.postMessage({ type: "refresh", games: others });
        if (result.sent.length || result.refused.length || result.held.length) {
          broadcast({ sent: result.sent.map(function (e) { return e.game; }).filter(Boolean), entries: result.sent });
        }
        return afterFlush({ games: games, sent: result.sent.length, refused: result.refused.length, html: result.html, entries: result.sent });
      })
      .catch(function () {})
      .then(function () {
        flushing = null;
        unsay("sending");
        // Said on the document when a replay has ended, whatever it sent (tests wait for it).
        document.dispatchEvent(new CustomEvent("muster:flushed"));
      });
    return flushing;
  }

  // Entries that reached Muster, whoever sent them (this page, another tab, the worker): the
  // game shown counts them until the server's game holds them, even if it cannot be fetched now.
  function noteSent(entries) {
    var game = document.getElementById("game");
    if (!game || !entries || !entries.length) return;
    var mine = entries.filter(function (e) { return e && e.game === game.dataset.game; });
    sentBefore.set(game, notHeld(game, joined(sentBefore.get(game) || [], mine)));
  }

  function afterFlush(outcome) {
    noteSent(outcome.entries);
    if (outcome.sent) say("sync", trn("%(count)s entry sent to Muster.", "%(count)s entries sent to Muster.", outcome.sent, { count: outcome.sent }));
    if (outcome.refused) say("sync", trn("Muster refused an entry recorded on this phone: see the game.", "Muster refused %(count)s entries recorded on this phone: see the game.", outcome.refused, { count: outcome.refused }));
    return showSent(outcome.games || [], outcome.html, outcome.refused > 0);
  }

  // Entries of these games reached Muster: show what it holds. Its answers (``html``, by queue)
  // are put in place at once, with no second request that could come back late: the game, the
  // clock strip and whatever else carries a version, or the page a form outside a game posted
  // from. A replay by the worker (or another tab) sends no answers, and a refusal none worth
  // showing: the page asks for the game.
  function showSent(games, html, refused) {
    var game = document.getElementById("game");
    var fresh = null;
    var freshHtml = null;
    Object.keys(html || {}).forEach(function (queue) {
      var doc = parse(html[queue]);
      var answer = doc.getElementById("game");
      if (answer && game && answer.dataset.game === game.dataset.game && (!fresh || version(answer) > version(fresh))) {
        fresh = answer;
        freshHtml = html[queue];
      }
      swapParts(doc);
      swapPage(queue, doc);
    });
    if (!game || games.indexOf(game.dataset.game) < 0) return render(false);
    if (fresh) {
      storeGame(freshHtml);
      return mergeGame(game, fresh);
    }
    // Answers came, none of them the game (a clock tap's): the game itself did not change.
    if (html && Object.keys(html).length && !refused) return render(false);
    return refreshGame(game);
  }

  // Parts of a screen outside #game that carry a version (the clock strip): an answer newer
  // than the part shown takes its place.
  function swapParts(doc) {
    doc.querySelectorAll("[id][data-version]").forEach(function (part) {
      if (part.id === "game" || part.closest("#game")) return;
      var shown = document.getElementById(part.id);
      if (!shown || version(part) <= version(shown)) return;
      var node = document.importNode(part, true);
      shown.replaceWith(node);
      if (window.htmx) htmx.process(node);
      document.dispatchEvent(new CustomEvent("muster:swapped", { detail: { id: part.id } }));
    });
  }

  // A form outside any game (marked data-outbox) reached Muster: its answer is the page as it
  // stands now, shown in place of this one's main part.
  function swapPage(queue, doc) {
    var here = document.getElementById("main");
    var there = doc.getElementById("main");
    if (!here || !there || document.getElementById("game")) return;
    var mine = Array.prototype.some.call(document.querySelectorAll("form[data-outbox]"), function (form) {
      return actionPath(form) === queue;
    });
    if (!mine) return;
    here.replaceChildren.apply(here, Array.prototype.map.call(there.childNodes, function (n) { return document.importNode(n, true); }));
    if (window.htmx) htmx.process(here);
  }

  // Ask the server for the game and show what it holds. The page comes whole (the worker keeps
  // it for offline use); if an htmx answer or another merge replaced the game while it was on
  // its way, that game is newer and stays (mergeGame, which says so all the same).
  function refreshGame(before) {
    return fetch(pageUrl(), { credentials: "same-origin", headers: { Accept: "text/html", "X-Muster-Refresh": "1" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var doc = html ? parse(html) : null;
        var fresh = doc ? doc.getElementById("game") : null;
        if (doc) swapParts(doc);
        if (!fresh) return render(false);
        return mergeGame(before, fresh).then(function () {
          if (controlled()) markStored(fresh.dataset.step);
        });
      })
      .catch(function () { return render(false); });
  }

  // Put the server's #game in place of the shown one: totals, history and step data update.
  // An answer no newer than the game shown changes nothing (a late one would put back a step
  // Muster already holds). What the player has touched is never replaced (the state is read
  // when the answer is applied, however late it comes): the step moves into the new #game if
  // the server still expects it; if not (the other phone recorded it), the next step shows and
  // a notice keeps what the player had entered. Every other form touched is kept the same way,
  // and every <details> the player opened stays open.
  function mergeGame(old, fresh) {
    // Said on the document whatever came of it (tests wait for a late answer to be merged).
    var merged = function () {
      document.dispatchEvent(new CustomEvent("muster:merged", { detail: { game: fresh.dataset.game, version: version(fresh) } }));
    };
    var pending;
    return Outbox.list(old.dataset.game)
      .catch(function () { return []; })
      .then(function (entries) {
        pending = entries.filter(function (e) { return e.status !== "refused" && !live[e.id]; });
        // Entries that left the outbox since the game shown was last drawn (the worker or another
        // tab sent them, its news not here yet) count as sent before the answer is weighed: an
        // answer made before they reached Muster must not bring their step back.
        return sentAhead(old, pending);
      })
      .then(function () {
        if (document.getElementById("game") !== old) return render(false); // replaced meanwhile
        if (version(fresh) <= version(old) && fresh.dataset.version !== undefined) return render(false);
        // Read what the player touched only now: a tap while the outbox was being read counts.
        var touched = old.querySelector("#step");
        if (!touched || touched.dataset.dirty !== "1") touched = null;
        var shown = touched ? touched.dataset.shown || shownKey(fold(old, [])) : "";
        var waiting = notHeld(fresh, pending);
        // Entries sent since the game shown was made, that this answer does not hold yet (it
        // came from before they arrived): the step still counts them, in the new game too.
        var ahead = notHeld(fresh, sentBefore.get(old) || []);
        var game = document.importNode(fresh, true);
        sentBefore.set(game, ahead);
        seenWaiting.set(game, pending);
        var slot = game.querySelector("#step");
        keepPristineStep(game, slot);
        var steps = joined(ahead, waiting);
        var keptTouched = false;
        if (touched) {
          var m = fold(game, steps);
          if (slot && m.key && m.key === shown.split(":")[0]) {
            touched.dataset.shown = shownKey(m);
            slot.replaceWith(touched);
            keptTouched = true;
          } else {
            var notice = keptValues(touched, "step");
            if (slot) slot.before(notice);
            else game.append(notice);
          }
        }
        // The step as this phone counts it is drawn before the game is shown: the server's step,
        // behind what waits or was just sent, would show for a moment otherwise.
        if (!keptTouched) renderStep(game, steps, waiting, false);
        keepTouchedForms(old, game);
        keepOpenDetails(old, game);
        // The field being typed in keeps the focus (and, with it, its caret) as it moves.
        var focus = document.activeElement;
        old.replaceWith(game);
        if (focus && focus !== document.activeElement && game.contains(focus)) focus.focus({ preventScroll: true });
        if (window.htmx) htmx.process(game);
        document.dispatchEvent(new Event("muster:enhance"));
        return render(false);
      })
      .then(function (out) { merged(); return out; }, function (error) { merged(); throw error; });
  }

  // Where a node stands in a screen, to find its counterpart in the server's new one: its id,
  // else the nearest id around it, its kind (a form's address and entry type) and its place
  // among the like nodes there.
  function placeOf(node, root) {
    // Read as an attribute: a form's ``id`` property is its field named "id".
    var own = node.getAttribute("id");
    if (own) return { id: own };
    var around = node.parentElement ? node.parentElement.closest("[id]") : null;
    if (!around || !root.contains(around)) around = root;
    var kind = node.tagName;
    if (node.tagName === "FORM") {
      var type = node.querySelector('input[name="type"]');
      kind += " " + node.getAttribute("action") + " " + (type ? type.value : "");
    }
    var like = Array.prototype.filter.call(around.querySelectorAll(node.tagName), function (n) { return kindOf(n) === kind; });
    return { around: around === root ? null : around.getAttribute("id"), kind: kind, index: like.indexOf(node) };
  }
  function kindOf(node) {
    if (node.tagName !== "FORM") return node.tagName;
    var type = node.querySelector('input[name="type"]');
    return node.tagName + " " + node.getAttribute("action") + " " + (type ? type.value : "");
  }
  function find(place, root) {
    if (place.id) return root.querySelector("#" + CSS.escape(place.id));
    var around = place.around ? root.querySelector("#" + CSS.escape(place.around)) : root;
    if (!around) return null;
    var like = Array.prototype.filter.call(around.querySelectorAll(place.kind.split(" ")[0]), function (n) { return kindOf(n) === place.kind; });
    return like[place.index] || null;
  }

  // Forms outside the step the player has started filling in (a deal, a unit destroyed, a ploy
  // to buy) go into the new #game as they are, with the server's new hidden fields (the round,
  // a fresh form token); one the server no longer offers leaves the values in a notice.
  function keepTouchedForms(old, game) {
    old.querySelectorAll("form[data-dirty]").forEach(function (form) {
      if (form.closest("#step") || form.closest(".entry-edit") || form.dataset.editOf) return;
      var twin = find(placeOf(form, old), game);
      if (twin && twin.tagName === "FORM" && kindOf(twin) === kindOf(form)) {
        twin.querySelectorAll('input[type="hidden"]').forEach(function (field) {
          if (field.name === "id" || !field.name) return;
          var mine = form.querySelector('input[type="hidden"][name="' + CSS.escape(field.name) + '"]');
          if (mine) mine.value = field.value;
        });
        twin.replaceWith(form);
      } else {
        var notice = keptValues(form, "form");
        var step = game.querySelector("#step");
        if (step) step.before(notice);
        else game.append(notice);
      }
    });
  }
  // ``except``: the form just sent, whose details may close with the server's answer.
  function keepOpenDetails(old, game, except) {
    old.querySelectorAll("details[open]").forEach(function (details) {
      if (details.closest(".entry-edit") || (except && details.contains(except))) return;
      var twin = find(placeOf(details, old), game);
      if (twin && twin.tagName === "DETAILS") twin.open = true;
    });
  }

  // What the player had entered in a step (or another form) the server no longer expects,
  // left on the screen.
  function keptValues(node, kind) {
    var box = el("div", { class: "notice step-kept", role: "status" });
    if (kind === "step") box.id = "step-kept";
    var forms = node.tagName === "FORM" ? [node] : Array.prototype.slice.call(node.querySelectorAll("form"));
    var title = { entry: forms.length ? titleOf(forms[0]) : tr("this step") };
    box.append(el("p", {}, kind === "step"
      ? tr("Muster already holds %(entry)s (recorded on another phone), so this phone did not send what you had entered there:", title)
      : tr("Muster no longer offers %(entry)s here, so this phone did not send what you had entered there:", title)));
    forms.forEach(function (form) { box.append(values(describe(form))); });
    return box;
  }

  // --- the game page: waiting entries, the sync note and the next step -------------------
  // Follow the server's step data over the waiting entries, in order: #game holds the plan (the
  // step the server expects, then those after it as far as the next choice) and the block in
  // play; each entry carries what its form said: the plan its choice chose, the block in play
  // once it waits, the part of a step that several forms complete, the once-only choices taken.
  function fold(game, waiting) {
    var plan = words(game.dataset.plan);
    var inPlay = game.dataset.inPlay || "";
    var done = [];
    var taken = [];
    waiting.forEach(function (e) {
      (e.once || []).forEach(function (key) { taken.push(key); });
      if (!e.step) return; // not a step (a roll, say): the plan stands
      if (e.inPlay !== undefined) inPlay = e.inPlay;
      if (e.parts) {
        if (done.indexOf(e.part) < 0) done.push(e.part);
        if (!e.parts.every(function (part) { return done.indexOf(part) >= 0; })) return;
      }
      done = [];
      plan = e.plan ? e.plan.slice() : plan.slice(1);
    });
    return { key: plan[0] || null, inPlay: inPlay, done: done, taken: taken };
  }
  function shownKey(m) { return (m.key || "") + (m.done.length ? ":" + m.done.join(",") : ""); }

  // Whether the game shown already holds an entry (its answer was lost, so it still waits on
  // the phone): the server names its latest entries (data-recent, the start of their ids).
  function holds(game, entry) {
    return words(game.dataset.recent).indexOf(String(entry.id).slice(0, 8)) >= 0;
  }
  // The entries the next step is folded from: those the game shown does not hold yet.
  function notHeld(game, entries) {
    return entries.filter(function (e) { return !holds(game, e); });
  }

  // The value a field marked data-carry was last given by a waiting entry, if any.
  function carried(name, waiting) {
    for (var i = waiting.length - 1; i >= 0; i--) {
      var p = params(waiting[i]);
      if (p.has(name)) return p.get(name);
    }
    return null;
  }

  function prepareStep(content, m, waiting, game) {
    content.querySelectorAll('input[name="id"]').forEach(function (input) { input.value = Outbox.uuid(); });
    content.querySelectorAll("[data-carry]").forEach(function (field) {
      var value = carried(field.name, waiting);
      if (value !== null) field.value = value;
    });
    content.querySelectorAll("form[data-part]").forEach(function (form) {
      if (m.done.indexOf(form.dataset.part) >= 0) form.remove();
    });
    var slot = content.querySelector("[data-map-slot]");
    var map = pristineMaps.get(game);
    if (slot && map) {
      slot.append(map.cloneNode(true));
      // The map is the server's drawing: what the waiting entries changed is not on it.
      if (waiting.length) slot.append(el("p", { class: "hint map-as-of" }, tr("Map as of the last sync: what waits on this phone is not drawn on it.")));
    }
    withdraw(content, m.taken);
  }

  // A once-only choice a waiting entry took is offered no more: a select's option goes, a box
  // is hidden and cleared, a form (or any other element so marked) is hidden; given back if
  // that entry is removed.
  function withdraw(root, taken) {
    var inEditor = !!(root.closest && root.closest(".entry-edit"));
    root.querySelectorAll("[data-once]").forEach(function (node) {
      // A held entry's editor offers what that entry took: the game's withdrawals leave it be.
      if (!inEditor && node.closest(".entry-edit")) return;
      var gone = taken.indexOf(node.dataset.once) >= 0;
      if (node.tagName === "SELECT") {
        Array.prototype.slice.call(node.options).forEach(function (option) {
          if (option.value && taken.indexOf(node.dataset.once + option.value) >= 0) option.remove();
        });
      } else if (node.tagName === "FORM" || !node.matches("input, select, textarea, button, label")) {
        node.hidden = gone;
      } else {
        // A box marked data-once-box goes with it, its other fields too (not sent while hidden).
        var box = node.closest("[data-once-box]") || node.closest("label") || node;
        box.hidden = gone;
        box.querySelectorAll("input, select, textarea").forEach(function (field) {
          if (gone && !field.disabled) field.dataset.withdrawn = "1";
          if (field.dataset.withdrawn) field.disabled = gone;
          if (!gone) delete field.dataset.withdrawn;
        });
        if (node === box) node.disabled = gone;
        if (gone) node.checked = false;
      }
    });
  }

  // Cards of blocks (data-blocks) show the block the step data puts in play, or none.
  function renderBlocks(game, m) {
    game.querySelectorAll("[data-blocks]").forEach(function (card) {
      var shown = false;
      card.querySelectorAll("[data-block]").forEach(function (block) {
        block.hidden = block.dataset.block !== m.inPlay;
        if (!block.hidden) shown = true;
      });
      card.hidden = !shown;
    });
    withdraw(game, m.taken);
  }

  // ``steps``: the entries the fold counts (sent ahead of the game shown, then waiting);
  // ``waiting``: those still on this phone.
  function renderStep(game, steps, waiting, moved) {
    var step = game.querySelector("#step");
    if (!step) return;
    // Only the player's own entry or undo moves a step they have touched; entries leaving the
    // outbox (sent, refused, removed) leave it as it is: the server's answer decides (mergeGame).
    if (!moved && step.dataset.dirty === "1") return;
    var m = fold(game, steps);
    var key = shownKey(m);
    var current = step.dataset.shown || shownKey(fold(game, []));
    if (key === current) return;
    var template = m.key ? game.querySelector('template[data-step="' + CSS.escape(m.key) + '"]') : null;
    var pristine = pristineSteps.get(game);
    var content;
    if (template) {
      content = template.content.cloneNode(true);
      prepareStep(content, m, steps, game);
    } else if (m.key && m.key === game.dataset.step && pristine && !m.done.length) {
      // Back at the step the server sent (a waiting entry was undone): its own form again.
      content = document.createDocumentFragment();
      Array.prototype.forEach.call(pristine.childNodes, function (n) { content.append(n.cloneNode(true)); });
      prepareStep(content, m, steps, game);
    } else {
      // Nothing rendered ahead for what follows: the step says what waits, and that the next needs Muster.
      var last = waiting.filter(function (e) { return e.step; }).pop();
      content = el("p", { class: "notice" }, last
        ? tr("%(entry)s waits on this phone: it is sent when Muster can be reached. The next step needs Muster: it shows when the connection is back.", { entry: last.title })
        : tr("The next step needs Muster: it shows when the connection is back."));
    }
    step.replaceChildren(content);
    step.dataset.shown = key;
    delete step.dataset.dirty;
    if (window.htmx) htmx.process(step);
    document.dispatchEvent(new Event("muster:enhance"));
    if (moved) step.scrollIntoView({ block: "start" });
  }

  function renderNote(game, entries) {
    var note = game.querySelector("#sync-note");
    if (!note) return;
    var waiting = entries.filter(function (e) { return e.status !== "refused"; }).length;
    var refused = entries.length - waiting;
    if (!entries.length) {
      note.hidden = true;
      return;
    }
    var parts = [tr("Totals as of the last sync")];
    if (waiting) parts.push(trn("%(count)s waiting", "%(count)s waiting", waiting, { count: waiting }));
    if (refused) parts.push(trn("%(count)s not recorded", "%(count)s not recorded", refused, { count: refused }));
    note.textContent = parts.join(" · ");
    note.hidden = false;
  }

  function values(lines) {
    return el.apply(null, ["ul", { class: "values" }].concat((lines || []).map(function (line) { return el("li", {}, line); })));
  }

  // Both versions of a refused entry, the phone's and the server's, as the server renders them
  // with one partial (GET /games/<id>/held): the same lines in the same words on both sides.
  // Without it (the server could not be asked), the values as the player saw them on the form.
  function versionsView(entry) {
    var theirs = values([tr("Muster could not be asked; open the game when the connection is back.")]);
    if (entry.held) {
      var doc = parse(entry.held);
      doc.querySelectorAll("script, style, link").forEach(function (n) { n.remove(); });
      var found = doc.querySelector(".versions");
      if (found) return document.importNode(found, true);
      // A server partial of the place alone (the clock as it stands, a game system's totals).
      theirs = el("div", { class: "held-view" });
      Array.prototype.forEach.call(doc.body.childNodes, function (n) { theirs.append(document.importNode(n, true)); });
    }
    return el(
      "div",
      { class: "versions" },
      el("div", { class: "version mine" }, el("h3", {}, tr("What you entered")), values(entered(entry))),
      el("div", { class: "version theirs" }, el("h3", {}, tr("What Muster holds now")), theirs)
    );
  }

  // For each entry, the refused entry of its own queue it is held behind, if any.
  function heldBehind(entries) {
    var refused = {};
    return entries.map(function (e) {
      var queue = queueOf(e);
      var before = refused[queue] || null;
      if (e.status === "refused" && !before) refused[queue] = e;
      return e.status === "refused" ? null : before;
    });
  }

  function renderOutbox(game, entries) {
    var box = game.querySelector("#outbox");
    if (!box) return;
    box.replaceChildren();
    if (!entries.length) {
      box.hidden = true;
      return;
    }
    var behind = heldBehind(entries);
    var refusedAt = -1;
    var reviewAt = -1;
    entries.forEach(function (e, i) {
      if (refusedAt < 0 && e.status === "refused") refusedAt = i;
      if (reviewAt < 0 && e.review && e.status !== "refused") reviewAt = i;
    });
    var waiting = entries.filter(function (e) { return e.status !== "refused"; }).length;
    var heading = tr("Waiting to sync (%(count)s)", { count: waiting });
    var hint = tr("Kept on this phone and sent in order when Muster can be reached. The totals above are as of the last sync.");
    if (refusedAt >= 0) {
      heading = tr("Not recorded by Muster");
      hint = tr("Muster refused an entry made on this phone. Nothing is lost: compare the two versions, then record the step again if it is still needed.");
    } else if (reviewAt >= 0) {
      heading = tr("Check before sending (%(count)s)", { count: waiting });
      hint = tr("These entries were made after the one Muster refused, so they may rest on it. Start with the first one marked Check it: keep it to send it, or discard it and record that step again.");
    }
    // Each entry's state, by the name its badge shows.
    var BADGES = { refused: tr("Not recorded"), held: tr("Held"), check: tr("Check it"), waiting: tr("Waiting") };
    box.append(el("h2", { id: "outbox-h" }, heading), el("p", { class: "hint" }, hint));
    var list = el("ol", { class: "pending-list" });
    entries.forEach(function (entry, i) {
      var item = el("li", { class: "pending " + entry.status, "data-entry": entry.id });
      var badge = entry.status === "refused" ? "refused" : behind[i] ? "held" : entry.review ? "check" : "waiting";
      item.append(el("div", { class: "entry-head" }, el("span", {}, entry.title), el("span", { class: "badge" }, BADGES[badge])));
      if (entry.status === "refused") {
        item.append(el("p", { class: "alert" }, tr("Muster refused it: %(reason)s", { reason: entry.reason })));
        item.append(versionsView(entry));
        var dismiss = el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, tr("Remove it from this phone"));
        item.append(dismiss);
      } else {
        item.append(values(entry.lines));
        if (entry.note) item.append(el("p", { class: "hint" }, entry.note));
        var editable = stepFormFor(game, entry) !== null;
        if (badge === "held") {
          item.append(el("p", { class: "hint" }, tr("Held back until the refused entry above is removed.")));
          if (editable) item.append(el("button", { type: "button", class: "secondary wide", "data-edit": entry.id }, tr("Edit it")));
          item.append(el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, tr("Discard it")));
        } else if (badge === "check" && i === reviewAt) {
          item.append(el("p", { class: "hint" }, tr("Check this one first: it is sent only once you keep it.")));
          item.append(el("button", { type: "button", class: "primary wide", "data-keep": entry.id }, tr("Keep it and send it")));
          if (editable) item.append(el("button", { type: "button", class: "secondary wide", "data-edit": entry.id }, tr("Edit it")));
          item.append(el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, tr("Discard it")));
        } else if (badge === "check") {
          item.append(el("p", { class: "hint" }, tr("Waits for the entry above to be checked.")));
        }
      }
      // An editor open on this entry stays open (and as the player left it) across re-renders.
      if (editing.id === entry.id && editing.box && badge !== "refused") {
        item.querySelectorAll("[data-edit]").forEach(function (b) { b.hidden = true; });
        item.append(editing.box);
      }
      list.append(item);
    });
    if (editing.id && !entries.some(function (e) { return e.id === editing.id; })) editing = { id: null, box: null };
    box.append(list);
    var sendable = entries.some(function (e, i) { return e.status !== "refused" && !behind[i] && !e.review; });
    if (sendable && reviewAt < 0) box.append(el("button", { type: "button", class: "secondary wide", "data-send-now": "1" }, tr("Try sending now")));
    box.hidden = false;
  }

  // A form outside a game that the server marks data-outbox (a club event's result to confirm):
  // while its entry is in the outbox, the form gives way to what waits (or was refused).
  function renderOutboxForms(all) {
    document.querySelectorAll("form[data-outbox]").forEach(function (form) {
      var queue = actionPath(form);
      var mine = all.filter(function (e) { return queueOf(e) === queue; });
      var note = form.nextElementSibling && form.nextElementSibling.hasAttribute("data-outbox-note") ? form.nextElementSibling : null;
      form.hidden = mine.length > 0;
      if (!mine.length) {
        if (note) note.remove();
        return;
      }
      if (!note) {
        note = el("div", { class: "notice outbox-note", "data-outbox-note": "", role: "status" });
        form.after(note);
      }
      note.replaceChildren();
      mine.forEach(function (entry) {
        if (entry.status === "refused") {
          note.append(el("p", { class: "alert" }, tr("%(entry)s: Muster refused it: %(reason)s", { entry: entry.title, reason: entry.reason })));
          note.append(el("button", { type: "button", class: "secondary wide", "data-dismiss": entry.id }, tr("Remove it from this phone")));
        } else {
          note.append(el("p", {}, tr("Kept on this phone: %(entry)s. It will be sent when Muster can be reached.", { entry: entry.title })));
          if (entry.note) note.append(el("p", { class: "hint" }, entry.note));
        }
      });
    });
  }

  // The offline page lists the games and rosters this phone keeps, with what waits to be sent.
  function listKeptPages(all) {
    var list = document.querySelector("[data-kept-pages]");
    if (!list || !window.caches) return Promise.resolve();
    return caches
      .open(Outbox.PAGES)
      .then(function (cache) {
        return cache.keys().then(function (requests) {
          var pages = requests.filter(function (r) {
            var path = new URL(r.url).pathname;
            return /^\/(games|rosters)\/[^/]+$/.test(path) && !/\/new$/.test(path);
          });
          return Promise.all(pages.map(function (r) {
            return cache.match(r).then(function (res) { return res.text(); }).then(function (html) {
              var title = /<title>([\s\S]*?)<\/title>/.exec(html);
              var doc = parse(title ? title[1] : "");
              return { url: new URL(r.url).pathname, title: (doc.body.textContent || r.url).replace(/ · Muster$/, "") };
            });
          }));
        });
      })
      .then(function (pages) {
        list.replaceChildren();
        pages.forEach(function (page) {
          var game = page.url.split("/")[2];
          var waiting = all.filter(function (e) { return e.game === game; }).length;
          var link = el("a", { class: "game-link", href: page.url }, el("span", { class: "game-title" }, page.title));
          if (waiting && page.url.indexOf("/games/") === 0) link.append(el("span", { class: "muted" }, trn("%(count)s waiting to sync", "%(count)s waiting to sync", waiting, { count: waiting })));
          list.append(el("li", {}, link));
        });
        var none = document.getElementById("kept-none");
        if (none) none.hidden = pages.length > 0;
      })
      .catch(function () {});
  }

  function render(moved) {
    paintStatus();
    showNetwork();
    var game = document.getElementById("game");
    return Outbox.list()
      .then(function (every) {
        // An entry htmx is sending now is not shown as waiting: it is answered in a moment.
        var all = every.filter(function (e) { return !live[e.id]; });
        waitingTotal = all.filter(function (e) { return e.status !== "refused"; }).length;
        queued = {};
        all.forEach(function (e) { queued[queueOf(e)] = (queued[queueOf(e)] || 0) + 1; });
        checkStorage(every.length);
        listKeptPages(all);
        renderOutboxForms(all);
        document.dispatchEvent(new CustomEvent("muster:outbox", { detail: {} }));
        if (!game || !game.dataset.game) return;
        if (storedStep && storedStep === game.dataset.step) markStored(storedStep);
        if (!pristineSteps.has(game)) keepPristineStep(game, game.querySelector("#step"));
        if (!pristineMaps.has(game)) {
          var svg = game.querySelector("[data-map-live] svg");
          if (svg) pristineMaps.set(game, svg.cloneNode(true));
        }
        var entries = all.filter(function (e) { return e.game === game.dataset.game; });
        var waiting = entries.filter(function (e) { return e.status !== "refused"; });
        game.dataset.pending = entries.length ? "1" : "0";
        renderNote(game, entries);
        renderOutbox(game, entries);
        askHeldAgain(entries);
        return sentAhead(game, waiting).then(function (ahead) {
          var steps = notHeld(game, joined(ahead, waiting));
          renderStep(game, steps, notHeld(game, waiting), moved);
          renderBlocks(game, fold(game, steps));
        });
      })
      .catch(function () {});
  }

  // A refused entry whose server version could not be fetched when it was refused (the phone
  // had just come back online) asks again, so "Muster could not be asked" does not stay on
  // screen once Muster answers; a failed ask is tried again a few seconds later.
  var askingHeld = {};
  function askHeldAgain(entries) {
    if (!navigator.onLine || !Outbox.serverVersion) return;
    entries.forEach(function (e) {
      if (e.status !== "refused" || e.held || askingHeld[e.id]) return;
      askingHeld[e.id] = true;
      Outbox.serverVersion(e).then(function (html) {
        if (!html) {
          setTimeout(function () { delete askingHeld[e.id]; render(false); }, 3000);
          return null;
        }
        return Outbox.get(e.id).then(function (current) {
          if (!current || current.held || current.status !== "refused") return null;
          current.held = html;
          return Outbox.put(current).then(function () { return render(false); });
        });
      });
    });
  }

  // Entries that reached Muster after the shown #game was made (by this page or the worker):
  // until the server's new #game arrives, the next step still counts them, so the phone never
  // asks again, even for a moment, for an entry the server holds.
  var seenWaiting = new WeakMap();
  var sentBefore = new WeakMap();
  function sentAhead(game, waiting) {
    var before = seenWaiting.get(game) || [];
    seenWaiting.set(game, waiting);
    var gone = before.filter(function (e) {
      return !waiting.some(function (w) { return w.id === e.id; });
    });
    if (!gone.length) return Promise.resolve(sentBefore.get(game) || []);
    return Promise.all(gone.map(function (e) {
      return Outbox.wasSent(e.id).then(function (sent) { return sent ? e : null; }, function () { return null; });
    })).then(function (sent) {
      var ahead = notHeld(game, joined(sentBefore.get(game) || [], sent.filter(Boolean)));
      sentBefore.set(game, ahead);
      return ahead;
    });
  }
  // Two lists of entries as one, each entry once (the worker's news and the page's own
  // reading of the outbox may name the same one).
  function joined(first, more) {
    var out = first.slice();
    more.forEach(function (e) {
      if (!out.some(function (o) { return o.id === e.id; })) out.push(e);
    });
    return out;
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("[data-dismiss], [data-send-now], [data-keep], [data-edit], [data-edit-cancel]") : null;
    if (!target) return;
    if (target.dataset.sendNow) {
      flushNow();
      return;
    }
    if (target.dataset.edit) {
      openEditor(target.dataset.edit);
      return;
    }
    if (target.hasAttribute("data-edit-cancel")) {
      editing = { id: null, box: null };
      render(false);
      return;
    }
    var done = target.dataset.keep ? keepReviewed(target.dataset.keep) : dismiss(target.dataset.dismiss);
    done.then(function () {
      broadcast();
      return render(false);
    }).then(function () {
      if (navigator.onLine) flushNow();
    });
  });

  // --- editing a held entry ------------------------------------------------------------------
  function keepPristineStep(game, step) {
    if (game && step && !step.dataset.shown) pristineSteps.set(game, step.cloneNode(true));
  }

  // The form of an entry's step, as the server rendered it: a step rendered ahead (<template>),
  // or the step #game came with; for a step several forms complete, the entry's own part.
  function stepFormFor(game, entry) {
    if (!game || !entry.step) return null;
    var roots = [];
    var template = game.querySelector('template[data-step="' + CSS.escape(entry.step) + '"]');
    if (template) roots.push(template.content);
    var pristine = pristineSteps.get(game);
    if (pristine) roots.push(pristine);
    for (var r = 0; r < roots.length; r++) {
      var forms = Array.prototype.filter.call(roots[r].querySelectorAll("form[data-step]"), function (f) {
        return f.dataset.step === entry.step && (entry.part === undefined || f.dataset.part === entry.part);
      });
      if (forms.length) return forms[0];
    }
    return null;
  }

  // Put an entry's values back into its form: fields by name, boxes and choices by value.
  function fill(form, data) {
    Array.prototype.forEach.call(form.elements, function (f) {
      if (!f.name || f.tagName === "BUTTON" || f.tagName === "FIELDSET") return;
      var given = data.getAll(f.name);
      if (f.type === "checkbox" || f.type === "radio") {
        f.checked = given.indexOf(f.value || "on") >= 0;
      } else if (f.tagName === "SELECT") {
        f.value = given.length ? given[0] : "";
        if (f.selectedIndex < 0) f.selectedIndex = 0;
      } else if (given.length) {
        f.value = given[0];
      } else if (f.type !== "hidden") {
        f.value = "";
      }
    });
  }

  function refusedBefore(entries, entry) {
    return entries.some(function (e) { return e.status === "refused" && e.seq < entry.seq && queueOf(e) === queueOf(entry); });
  }

  // The step's form with the entry's values, in the entry, to change and record again: a held
  // entry stays held with its new values; one to check is sent with them.
  function openEditor(id) {
    var game = document.getElementById("game");
    return Outbox.list(game ? game.dataset.game : undefined).then(function (entries) {
      var entry = entries.filter(function (e) { return e.id === id; })[0];
      var source = entry ? stepFormFor(game, entry) : null;
      if (!source) return;
      var form = source.cloneNode(true);
      // Inert beside the live step: no htmx, no ids twice on the page, no map or widget copies.
      form.querySelectorAll("*").forEach(function (n) {
        Array.prototype.slice.call(n.attributes).forEach(function (a) { if (a.name.indexOf("hx-") === 0) n.removeAttribute(a.name); });
      });
      Array.prototype.slice.call(form.attributes).forEach(function (a) { if (a.name.indexOf("hx-") === 0) form.removeAttribute(a.name); });
      form.querySelectorAll("button.cycle, [data-map-slot], [data-map-live], details.calculator").forEach(function (n) { n.remove(); });
      form.querySelectorAll("[data-upgraded]").forEach(function (n) { delete n.dataset.upgraded; });
      form.querySelectorAll("[id]").forEach(function (n) { n.id = "edit-" + n.id; });
      form.querySelectorAll("label[for]").forEach(function (n) { n.htmlFor = "edit-" + n.htmlFor; });
      form.id = "edit-form";
      form.classList.remove("card");
      form.classList.add("entry-form");
      form.dataset.editOf = entry.id;
      fill(form, params(entry));
      // Once-only choices other waiting entries took are not offered; this entry's own are.
      var others = entries.filter(function (e) { return e.id !== entry.id && e.status !== "refused"; });
      withdraw(form, fold(game, others).taken);
      var held = refusedBefore(entries, entry);
      form.querySelectorAll('button[type="submit"]:not([name]), button:not([type]):not([name])').forEach(function (b) {
        b.textContent = held ? tr("Keep the change (still held)") : tr("Send it with the change");
      });
      var box = el(
        "div",
        { class: "entry-edit" },
        el("p", { class: "hint" }, held
          ? tr("Change what you need: the entry keeps its place and stays held until the refused entry above is removed.")
          : tr("Change what you need: the entry is then sent with the change.")),
        form,
        el("button", { type: "button", class: "secondary wide", "data-edit-cancel": "1" }, tr("Cancel the change"))
      );
      editing = { id: entry.id, box: box };
      return render(false).then(function () {
        document.dispatchEvent(new Event("muster:enhance"));
        var first = form.querySelector("select, input:not([type=hidden]), button");
        box.scrollIntoView({ block: "start" });
        if (first) first.focus({ preventScroll: true });
      });
    });
  }

  function saveEdit(form, submitter) {
    var id = form.dataset.editOf;
    return Outbox.get(id).then(function (entry) {
      if (!entry) return null;
      var data = new URLSearchParams(new FormData(form, submitter || undefined));
      data.set("id", entry.id);
      var found = stepOf(form, data);
      Object.keys(found).forEach(function (k) { entry[k] = found[k]; });
      entry.body = data.toString();
      entry.title = titleOf(form);
      entry.lines = describe(form, submitter);
      entry.once = takenBy(form);
      // Edited after the refusal was in sight: checked, so not asked about again.
      entry.checked = true;
      delete entry.review;
      delete entry.note;
      return Outbox.put(entry).then(function () {
        editing = { id: null, box: null };
        broadcast();
        return Outbox.list(entry.game);
      }).then(function (entries) {
        var held = refusedBefore(entries, entry);
        say("sync", held
          ? tr("Changed on this phone: %(entry)s. It stays held behind the entry Muster refused.", { entry: entry.title })
          : tr("Changed on this phone: %(entry)s.", { entry: entry.title }));
        return render(false);
      }).then(function () {
        if (navigator.onLine) flushNow();
      });
    });
  }

  // Removing a refused entry does not send the entries held behind it: they were made on the
  // refused version, so each waits for the player to check it (review) and keep or discard it.
  function dismiss(id) {
    return Outbox.get(id).then(function (entry) {
      if (!entry || entry.status !== "refused") return Outbox.remove(id);
      return Outbox.list(entry.game).then(function (entries) {
        var behind = entries.filter(function (e) {
          return e.seq > entry.seq && e.status !== "refused" && !e.checked && queueOf(e) === queueOf(entry);
        });
        return Promise.all(behind.map(function (e) {
          e.review = true;
          return Outbox.put(e);
        })).then(function () { return Outbox.remove(id); });
      });
    });
  }
  function keepReviewed(id) {
    return Outbox.get(id).then(function (entry) {
      if (!entry) return null;
      delete entry.review;
      return Outbox.put(entry);
    });
  }

  // A form the player has started filling in (the step, or any other) is not replaced under
  // their fingers.
  function markDirty(event) {
    var target = event.target;
    if (!target.closest) return;
    var step = target.closest("#step");
    if (step) step.dataset.dirty = "1";
    var form = target.form || target.closest("form");
    if (form && form.closest("#game")) form.dataset.dirty = "1";
  }
  document.addEventListener("input", markDirty);
  document.addEventListener("change", markDirty);

  // --- other tabs of this phone share the outbox --------------------------------------------
  // A change to the outbox is told to the other tabs, which show it; entries one tab sent are
  // shown as Muster holds them in the others.
  function broadcast(detail) {
    if (!channel) return;
    try {
      channel.postMessage({ type: "outbox", sent: (detail && detail.sent) || [], entries: (detail && detail.entries) || [] });
    } catch (e) { /* a closed channel */ }
  }
  if (channel) {
    channel.onmessage = function (event) {
      var data = event.data || {};
      if (data.type !== "outbox") return;
      noteSent(data.entries);
      var game = document.getElementById("game");
      if (game && (data.sent || []).indexOf(game.dataset.game) >= 0) showSent(data.sent, null);
      else render(false);
    };
  }

  window.addEventListener("online", function () {
    showNetwork();
    flushNow();
  });
  window.addEventListener("offline", showNetwork);
  // A page leaving with an entry still on its way: the worker sends what is left at once.
  window.addEventListener("pagehide", function () {
    if (Object.keys(live).length && controlled()) navigator.serviceWorker.controller.postMessage({ type: "flush" });
  });
  // The player's own entry replaces #game (htmx): what they were filling in elsewhere on the
  // screen, and the details they had open, stay as they were.
  var swapping = null;
  document.addEventListener("htmx:before:swap", function (event) {
    var ctx = event.detail && event.detail.ctx;
    swapping = ctx && ctx.target && ctx.target.id === "game" ? { old: ctx.target, form: ctx.request && ctx.request.form } : null;
  });
  document.addEventListener("htmx:after:swap", function () {
    var was = swapping;
    swapping = null;
    var game = document.getElementById("game");
    if (was && game && was.old !== game && !was.old.isConnected) {
      keepTouchedForms(was.old, game);
      keepOpenDetails(was.old, game, was.form);
    }
    keepMovedPage();
    render(false);
  });
  document.addEventListener("htmx:after:history:push", keepMovedPage);
  document.addEventListener("htmx:after:history:replace", keepMovedPage);
  // A page in another language than the pages this phone keeps (the language switch, or the
  // phone's own language changed): the worker fetches every kept page again, in this one.
  function followLanguage() {
    var lang = document.documentElement.lang;
    var kept;
    try { kept = localStorage.getItem("muster-kept-lang"); } catch (e) { return; }
    if (kept === lang || !controlled() || !navigator.onLine) return;
    navigator.serviceWorker.controller.postMessage({ type: "language", lang: lang });
    try { localStorage.setItem("muster-kept-lang", lang); } catch (e) { /* private mode: asked again next time */ }
  }
  if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("controllerchange", followLanguage);
  document.addEventListener("DOMContentLoaded", function () {
    registerWorker();
    followLanguage();
    render(false).then(function () {
      if (waitingTotal && navigator.onLine) flushNow();
    });
  });
  // While entries wait and the network is up, the server may only be down: ask again now and then.
  setInterval(function () {
    if (waitingTotal && navigator.onLine && document.visibilityState === "visible") flushNow();
  }, 20000);

  // Follow the other phones at the table: now and then ask how many entries the game holds,
  // and when it grew, show the server's game (what is being filled in stays: mergeGame). A phone
  // with entries of its own waiting gets the server's game when they are sent instead.
  var following = null;
  var followMeta = document.querySelector('meta[name="muster-follow-seconds"]');
  var FOLLOW_MS = Outbox.pause("follow", Math.max(1, Number(followMeta && followMeta.content) || 5) * 1000);
  function followGame() {
    var game = document.getElementById("game");
    if (!game || !game.dataset.game || !game.dataset.version || following || flushing || waitingTotal) return;
    if (!navigator.onLine || document.visibilityState !== "visible") return;
    following = fetch("/games/" + encodeURIComponent(game.dataset.game) + "/version", { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (!answer || document.getElementById("game") !== game) return;
        if (answer.version > Number(game.dataset.version)) return refreshGame(game);
      })
      .catch(function () {})
      .then(function () { following = null; });
  }
  setInterval(followGame, FOLLOW_MS);
  document.addEventListener("visibilitychange", followGame);

  window.MusterOffline = { flush: flushNow, render: render, fold: fold };
})();
