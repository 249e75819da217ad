import Foundation
import Hummingbird

/// The search page served at `/`: a Spotlight-like box that answers as you
/// type (over `/v1/search/live`, with `/v1/search` as fallback), results
/// grouped by app with icons, thumbnails, stars and prices, web results under
/// them, a result's "why" from `/v1/explain`, and the keyboard first:
/// ↑/↓ choose, Enter opens, Ctrl+Enter (⌘+Enter) searches in the app,
/// Ctrl+I explains, Escape clears. One file, no external assets (it works
/// offline), every text put in with `textContent` (titles are the apps' data,
/// never markup), scripts and styles only with the response's nonce.
enum SearchPage {
    /// The page, with this response's token (for its POSTs) and nonce.
    static func response(token: ServiceToken, listener: Listener) -> Response {
        var bytes = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        let nonce = Data(bytes).base64EncodedString()
        let html = template.replacingOccurrences(of: "{{NONCE}}", with: nonce).replacingOccurrences(of: "{{TOKEN}}", with: token.value)
        // CSP sources cannot name an IPv6 literal: the page is served as 127.0.0.1 or localhost.
        let sockets = listener.ownOrigins.filter { !$0.contains("[") }.map { $0.replacingOccurrences(of: "http://", with: "ws://") }.sorted().joined(separator: " ")
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; img-src 'self' data:; "
            + "connect-src 'self' \(sockets); base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static let template = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="openspotlight-token" content="{{TOKEN}}">
    <link rel="icon" href="data:,">
    <title>Spotlight Search</title>
    <style nonce="{{NONCE}}">
    :root { color-scheme: light dark; --bg: #f4f4f6; --panel: #ffffffee; --text: #1d1d1f; --muted: #6e6e73; --accent: #0a63d6; --selected: #0a63d6; --line: #d9d9de; }
    @media (prefers-color-scheme: dark) { :root { --bg: #1c1c1e; --panel: #2c2c2eee; --text: #f5f5f7; --muted: #a1a1a6; --accent: #4b9bff; --selected: #0a5ccc; --line: #3a3a3c; } }
    * { box-sizing: border-box; }
    body { margin: 0; font: 15px/1.35 system-ui, -apple-system, "Segoe UI", Cantarell, sans-serif; background: var(--bg); color: var(--text); }
    main { max-width: 720px; margin: 8vh auto 4vh; background: var(--panel); border-radius: 14px; box-shadow: 0 12px 40px #0003; overflow: hidden; }
    #box { display: flex; align-items: center; gap: 10px; padding: 14px 18px; border-bottom: 1px solid var(--line); }
    #box svg { flex: none; opacity: .6; }
    #q { flex: 1; font-size: 22px; border: 0; outline: 0; background: transparent; color: var(--text); }
    #status { padding: 6px 18px; color: var(--muted); font-size: 12px; min-height: 1.2em; }
    #status:empty { display: none; }
    .group { padding: 4px 0 6px; border-top: 1px solid var(--line); }
    .group:first-child { border-top: 0; }
    .group-head { display: flex; align-items: center; gap: 8px; padding: 6px 18px 2px; color: var(--muted); font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
    .group-head .spacer { flex: 1; }
    .group-head button, .actions button, .why-button { font: inherit; font-size: 12px; text-transform: none; letter-spacing: 0; border: 1px solid var(--line); border-radius: 6px; background: transparent; color: var(--accent); padding: 1px 8px; cursor: pointer; }
    .app-icon { width: 18px; height: 18px; border-radius: 5px; display: inline-grid; place-items: center; color: #fff; font-size: 11px; font-weight: 700; background: #8e8e93; text-transform: uppercase; }
    img.app-icon { background: none; }
    .row { display: flex; gap: 12px; align-items: flex-start; padding: 7px 18px; cursor: default; }
    .row.selected { background: var(--selected); color: #fff; }
    .row.selected .muted, .row.selected .price, .row.selected .stars { color: #e8f0ff; }
    .row.selected .actions button, .row.selected .why-button { color: #fff; border-color: #ffffff88; }
    .thumb { width: 40px; height: 40px; flex: none; border-radius: 8px; object-fit: cover; background: var(--line); display: grid; place-items: center; font-weight: 700; color: var(--muted); }
    .body { flex: 1; min-width: 0; }
    .title { font-weight: 600; }
    .muted { color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
    .meta { display: flex; gap: 10px; flex-wrap: wrap; font-size: 13px; margin-top: 2px; }
    .stars { color: #f5a623; letter-spacing: 1px; }
    .price { font-weight: 600; color: var(--accent); }
    .actions { display: flex; gap: 6px; flex-wrap: wrap; margin-top: 4px; }
    .why { margin-top: 4px; font-size: 12px; white-space: pre-wrap; }
    .more { padding: 0 18px 4px 70px; color: var(--muted); font-size: 12px; }
    .unavailable { padding: 8px 18px; color: #b25000; font-size: 13px; border-top: 1px solid var(--line); }
    .empty { padding: 18px; color: var(--muted); }
    footer { max-width: 720px; margin: 0 auto; color: var(--muted); font-size: 12px; text-align: center; }
    kbd { font: inherit; border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; }
    </style>
    </head>
    <body>
    <main>
      <div id="box">
        <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true"><circle cx="8" cy="8" r="6" stroke="currentColor" stroke-width="2" fill="none"/><line x1="12.5" y1="12.5" x2="18" y2="18" stroke="currentColor" stroke-width="2"/></svg>
        <input id="q" type="search" placeholder="Spotlight Search" autocomplete="off" spellcheck="false" autofocus
               role="combobox" aria-expanded="false" aria-controls="results" aria-autocomplete="list" aria-label="Search">
      </div>
      <div id="status" role="status" aria-live="polite"></div>
      <div id="results" role="listbox" aria-label="Results"></div>
    </main>
    <footer><kbd>↑</kbd><kbd>↓</kbd> choose · <kbd>Enter</kbd> open · <kbd>Ctrl</kbd>+<kbd>Enter</kbd> search in app · <kbd>Ctrl</kbd>+<kbd>I</kbd> why · <kbd>Esc</kbd> clear</footer>
    <script nonce="{{NONCE}}">
    "use strict";
    const token = document.querySelector('meta[name="openspotlight-token"]').content;
    const input = document.getElementById("q");
    const list = document.getElementById("results");
    const status = document.getElementById("status");
    let rows = [];          // {element, kind: "result"|"web"|"place", data, app}
    let selected = -1;
    let latestSent = 0, latestShown = 0;
    let socket = null, socketReady = false, pending = null, controller = null;
    let lastQuery = "";
    let impressionTimer = null;

    function element(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined && text !== null) node.textContent = String(text);
      return node;
    }
    function say(text) { status.textContent = text; }

    function connect() {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      try { socket = new WebSocket(scheme + "//" + location.host + "/v1/search/live"); } catch (e) { socket = null; return; }
      socket.onopen = () => { socketReady = true; if (pending) { socket.send(pending); pending = null; } };
      socket.onmessage = (event) => {
        const answer = JSON.parse(event.data);
        if (answer.id < latestSent) return;          // a later keystroke is on its way
        if (answer.type === "results") render(answer.results, answer.id);
        else say(answer.error ? answer.error.message : "search failed");
      };
      socket.onclose = () => { socketReady = false; socket = null; setTimeout(connect, 1000); };
    }

    function search(text) {
      lastQuery = text;
      const id = ++latestSent;
      if (!text.trim()) { suggest(id); return; }
      const message = JSON.stringify({ id: id, q: text, perApp: 3, web: 3 });
      if (socket && socketReady) { socket.send(message); return; }
      if (socket) { pending = message; }
      // Without the socket: one request at a time, the previous one aborted.
      if (controller) controller.abort();
      controller = new AbortController();
      fetch("/v1/search?q=" + encodeURIComponent(text) + "&perApp=3&web=3", { signal: controller.signal })
        .then((response) => response.json())
        .then((body) => { if (id >= latestSent) { if (body.error) say(body.error.message); else render(body, id); } })
        .catch(() => {});
    }

    // Before anything is typed: the places of the activities viewed last, each
    // from its app, with Navigate and Call (proactive suggestions).
    function suggest(id) {
      render(null, id);
      fetch("/v1/suggestions/places")
        .then((response) => response.json())
        .then((found) => { if (id === latestSent && found.suggestions) renderPlaces(found.suggestions, id); })
        .catch(() => {});
    }

    function renderPlaces(places, id) {
      if (!places.length) return;
      latestShown = id;
      rows = []; selected = -1;
      list.replaceChildren();
      input.setAttribute("aria-expanded", "true");
      const section = element("section", "group places");
      const head = element("div", "group-head");
      head.appendChild(element("span", "", "Suggested places"));
      section.appendChild(head);
      for (const place of places) {
        addRow(section, "place", place, null, (row) => {
          row.appendChild(element("div", "thumb", "⌖"));
          const body = element("div", "body");
          body.appendChild(element("div", "title", place.name));
          if (place.address) body.appendChild(element("div", "muted address", place.address));
          body.appendChild(element("div", "muted attribution", place.attribution));
          const actions = element("div", "actions");
          for (const action of place.actions) {
            const button = element("button", "action", action.label);
            button.dataset.kind = action.kind;
            button.addEventListener("click", () => perform(place, action));
            actions.appendChild(button);
          }
          body.appendChild(actions);
          row.appendChild(body);
        });
      }
      list.appendChild(section);
      say(places.length === 1 ? "1 suggested place" : places.length + " suggested places");
    }

    function stars(rating) {
      const full = Math.round(rating);
      return "★".repeat(full) + "☆".repeat(5 - full);
    }

    function appIcon(app) {
      if (app.icon) { const img = element("img", "app-icon"); img.src = app.icon; img.alt = ""; return img; }
      const badge = element("span", "app-icon", (app.displayName || "?").slice(0, 1));
      let hue = 0; for (const c of app.bundleIdentifier) hue = (hue * 31 + c.charCodeAt(0)) % 360;
      badge.style.background = "hsl(" + hue + ",55%,45%)";
      return badge;
    }

    function addRow(container, kind, data, app, build) {
      const row = element("div", "row");
      row.setAttribute("role", "option");
      row.dataset.kind = kind;
      if (data && data.reference) row.dataset.reference = data.reference;
      build(row);
      const index = rows.length;
      row.addEventListener("mousemove", () => select(index));
      row.addEventListener("click", (event) => { if (event.target.tagName !== "BUTTON") { select(index); activate(false); } });
      rows.push({ element: row, kind: kind, data: data, app: app });
      container.appendChild(row);
    }

    function render(found, id) {
      latestShown = id;
      clearTimeout(impressionTimer);
      rows = []; selected = -1;
      list.replaceChildren();
      input.setAttribute("aria-expanded", found ? "true" : "false");
      if (!found) { say(""); return; }
      for (const group of found.groups) {
        const section = element("section", "group");
        section.dataset.app = group.app.bundleIdentifier;
        const head = element("div", "group-head");
        head.append(appIcon(group.app), element("span", "", group.app.displayName), element("span", "spacer"));
        if (group.offersSearchInApp) {
          const button = element("button", "search-in-app", "Search in App");
          button.addEventListener("click", () => searchInApp(group.app));
          head.appendChild(button);
        }
        section.appendChild(head);
        for (const result of group.results) {
          addRow(section, "result", result, group.app, (row) => {
            if (result.thumbnail) { const img = element("img", "thumb"); img.src = result.thumbnail; img.alt = ""; row.appendChild(img); }
            else row.appendChild(element("div", "thumb", (result.title || "?").slice(0, 1)));
            const body = element("div", "body");
            body.appendChild(element("div", "title", result.title));
            if (result.description) body.appendChild(element("div", "muted description", result.description));
            const meta = element("div", "meta");
            if (typeof result.rating === "number") {
              const rating = element("span", "stars", stars(result.rating));
              rating.title = result.ratingDescription || (result.rating + " of 5");
              meta.appendChild(rating);
            }
            if (typeof result.price === "number") meta.appendChild(element("span", "price", result.price.toFixed(2)));
            const street = result.address ? result.address.split(",")[0].trim().toLowerCase() : "";
            if (street && !(result.description || "").toLowerCase().includes(street)) meta.appendChild(element("span", "muted address", result.address));
            if (meta.childElementCount) body.appendChild(meta);
            const actions = element("div", "actions");
            for (const action of result.actions) {
              const button = element("button", "action", action.label);
              button.dataset.kind = action.kind;
              button.addEventListener("click", () => perform(result, action));
              actions.appendChild(button);
            }
            const why = element("button", "why-button", "Why?");
            why.addEventListener("click", () => explain(result, body));
            actions.appendChild(why);
            body.appendChild(actions);
            row.appendChild(body);
          });
        }
        if (group.hasMoreResults) section.appendChild(element("div", "more", "more in " + group.app.displayName + "…"));
        list.appendChild(section);
      }
      if (found.web.length) {
        const section = element("section", "group web");
        const head = element("div", "group-head");
        head.appendChild(element("span", "", "Web"));
        section.appendChild(head);
        for (const page of found.web) {
          addRow(section, "web", page, null, (row) => {
            let host = page.url;
            try { host = new URL(page.url).hostname; } catch (e) {}
            row.appendChild(element("div", "thumb", host.slice(0, 1).toUpperCase()));
            const body = element("div", "body");
            body.appendChild(element("div", "title", page.title));
            if (page.description) body.appendChild(element("div", "muted", page.description));
            const where = page.appName ? "opens in " + page.appName : (page.appStoreID ? "get the app: App Store id " + page.appStoreID : page.url);
            body.appendChild(element("div", "muted", where));
            row.appendChild(body);
          });
        }
        list.appendChild(section);
      }
      if (found.unavailableApps.length) {
        list.appendChild(element("div", "unavailable", "Not searched this time: " + found.problems.join("; ")));
      }
      if (!found.groups.length && !found.web.length) list.appendChild(element("div", "empty", "No results for “" + found.query + "”"));
      say(rows.length + " results in " + found.tookMilliseconds + " ms");
      if (rows.length) select(0);
      // Results left on screen for a second were seen: report them (impressions, for ranking).
      clearTimeout(impressionTimer);
      const shown = rows.filter((row) => row.kind === "result").map((row) => row.data.reference);
      impressionTimer = setTimeout(() => {
        if (latestShown === id && shown.length) post("/v1/impressions", { references: shown }).catch(() => {});
      }, 1000);
    }

    function select(index) {
      if (selected >= 0 && rows[selected]) { rows[selected].element.classList.remove("selected"); rows[selected].element.setAttribute("aria-selected", "false"); }
      selected = index;
      if (index >= 0 && rows[index]) {
        rows[index].element.classList.add("selected");
        rows[index].element.setAttribute("aria-selected", "true");
        rows[index].element.scrollIntoView({ block: "nearest" });
      }
    }

    function post(path, body) {
      return fetch(path, { method: "POST", headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token }, body: JSON.stringify(body) })
        .then((response) => response.json());
    }

    function activate(inApp) {
      const row = rows[selected];
      if (!row) return;
      if (inApp) {
        const app = row.app || (rows.find((r) => r.app) || {}).app;
        if (app) searchInApp(app);
        return;
      }
      const request = row.kind === "web" ? { web: row.data.url } : { reference: row.data.reference };
      say("Opening " + (row.data.title || row.data.name) + "…");
      post("/v1/open", request).then((answer) => {
        say(answer.error ? answer.error.message : "Opened in " + answer.appName + (answer.recordedSelection ? " (selection recorded)" : ""));
      }).catch(() => say("the service did not answer"));
    }

    function searchInApp(app) {
      say("Searching in " + app.displayName + "…");
      post("/v1/search-in-app", { app: app.bundleIdentifier, text: lastQuery }).then((answer) => {
        say(answer.error ? answer.error.message : "Searching for “" + lastQuery + "” in " + answer.appName);
      }).catch(() => say("the service did not answer"));
    }

    function perform(result, action) {
      post("/v1/action", { reference: result.reference, kind: action.kind }).then((answer) => {
        say(answer.error ? answer.error.message : action.label + " → " + answer.uri);
      }).catch(() => say("the service did not answer"));
    }

    function explain(result, body) {
      fetch("/v1/explain?ref=" + encodeURIComponent(result.reference) + "&q=" + encodeURIComponent(lastQuery))
        .then((response) => response.json())
        .then((why) => {
          let box = body.querySelector(".why");
          if (!box) { box = element("div", "why muted"); body.appendChild(box); }
          box.textContent = why.error ? why.error.message
            : why.summary + "\n" + why.terms.map((t) => t.term + ": " + (t.foundIn.length ? "in " + t.foundIn.join(", ") : "not in the item")).join("\n");
        });
    }

    input.addEventListener("input", () => search(input.value));
    input.addEventListener("keydown", (event) => {
      if (event.key === "ArrowDown") { event.preventDefault(); if (rows.length) select(Math.min(rows.length - 1, selected + 1)); }
      else if (event.key === "ArrowUp") { event.preventDefault(); if (rows.length) select(Math.max(0, selected - 1)); }
      else if (event.key === "Enter") { event.preventDefault(); activate(event.ctrlKey || event.metaKey); }
      else if (event.key === "Escape") { event.preventDefault(); input.value = ""; search(""); }
      else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "i") {
        event.preventDefault();
        const row = rows[selected];
        if (row && row.kind === "result") explain(row.data, row.element.querySelector(".body"));
      }
    });
    connect();
    const initial = new URLSearchParams(location.search).get("q");
    if (initial) { input.value = initial; search(initial); } else search("");
    input.focus();
    </script>
    </body>
    </html>
    """#
}
