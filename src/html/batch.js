// The batch page's only script: renders the table from the inline JSON a page at a time, and
// one item's highlighted text when it is expanded. Text goes into the DOM through textContent
// and attributes through the DOM API only, so nothing in the data is ever parsed as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("palisade-data").textContent);
  var items = data.items;
  var PAGE = 50;
  var state = { verdict: "", kind: "", q: "", page: 0 };
  var shown = [];
  var rows = document.getElementById("rows");
  var count = document.getElementById("count");
  var pageLabel = document.getElementById("page");
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var VERDICT = { blocked: "\u2716 blocked", notice: "\u25C6 notices", clean: "\u2714 clean", error: "! error" };
  var SEV = { block: "\u2716 BLOCK", notice: "\u25C6 NOTICE" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function matches(it) {
    if (state.verdict && it.v !== state.verdict) return false;
    if (state.kind && it.k.indexOf(state.kind) < 0) return false;
    if (state.q && String(it.id).toLowerCase().indexOf(state.q) < 0) return false;
    return true;
  }

  function filter() {
    shown = [];
    for (var i = 0; i < items.length; i++) if (matches(items[i])) shown.push(i);
    state.page = 0;
    render();
  }

  function render() {
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var from = state.page * PAGE;
    var to = Math.min(shown.length, from + PAGE);
    var frag = document.createDocumentFragment();
    for (var j = from; j < to; j++) frag.appendChild(row(shown[j]));
    rows.textContent = "";
    rows.appendChild(frag);
    count.textContent = (to > from ? "Showing " + (from + 1) + "\u2013" + to : "Showing none") +
      " of " + shown.length + " matching (" + items.length + " in all)";
    pageLabel.textContent = "page " + (state.page + 1) + " of " + pages;
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
  }

  function row(i) {
    var it = items[i];
    var tr = el("tr", "item");
    tr.dataset.index = i;
    tr.dataset.verdict = it.v;
    var btn = el("button", "expand", "\u25B8");
    btn.setAttribute("aria-expanded", "false");
    btn.title = "Show the highlighted text";
    var td = el("td");
    td.appendChild(btn);
    tr.appendChild(td);
    tr.appendChild(el("td", "num", String(i + 1)));
    tr.appendChild(el("td", "id", String(it.id)));
    var v = el("td");
    v.appendChild(el("span", "sev " + it.v, VERDICT[it.v]));
    tr.appendChild(v);
    tr.appendChild(el("td", "kinds", it.k.join(", ")));
    tr.appendChild(el("td", "num", String(it.f.length)));
    btn.addEventListener("click", function () { toggle(tr, i, btn); });
    return tr;
  }

  function toggle(tr, i, btn) {
    var after = tr.nextSibling;
    if (after && after.classList.contains("detail")) {
      after.remove();
      btn.setAttribute("aria-expanded", "false");
      btn.textContent = "\u25B8";
      return;
    }
    var d = el("tr", "detail");
    var td = el("td");
    td.colSpan = 6;
    td.appendChild(detail(i));
    d.appendChild(td);
    tr.parentNode.insertBefore(d, after);
    btn.setAttribute("aria-expanded", "true");
    btn.textContent = "\u25BE";
  }

  function detail(i) {
    var it = items[i];
    var prefix = "i" + i + "-";
    var box = el("div", "cols");
    if (it.e !== undefined) {
      box.appendChild(el("p", "note", it.e));
      return box;
    }
    var pre = el("pre", "text");
    var started = {};
    it.s.forEach(function (s) {
      var parent = pre;
      s[0].forEach(function (n) {
        var f = it.f[n];
        var m = el("mark", f[2]);
        if (!started[n]) {
          started[n] = true;
          m.id = prefix + "f" + n;
          m.dataset.first = "";
          m.dataset.n = String(n + 1);
        }
        m.dataset.rule = f[0];
        m.dataset.kind = f[1];
        m.dataset.severity = f[2];
        m.title = SEV[f[2]] + " " + f[0] + ": " + f[3];
        parent.appendChild(m);
        parent = m;
      });
      if (s[2] === 1) parent.appendChild(el("span", "masked", s[1]));
      else if (s[2] === 2) parent.appendChild(el("span", "inv", s[1]));
      else if (s[1]) parent.appendChild(document.createTextNode(s[1]));
    });
    var left = el("div", "panel");
    left.appendChild(pre);
    box.appendChild(left);
    var list = el("ol", "findings");
    it.f.forEach(function (f, n) {
      var li = el("li", f[2]);
      li.appendChild(el("span", "sev " + f[2], SEV[f[2]]));
      li.appendChild(document.createTextNode(" "));
      var a = el(started[n] ? "a" : "span", "rule");
      if (started[n]) a.href = "#" + prefix + "f" + n;
      a.appendChild(el("sup", undefined, String(n + 1)));
      a.appendChild(document.createTextNode(" " + f[0]));
      li.appendChild(a);
      li.appendChild(el("span", "kind", f[1]));
      li.appendChild(el("div", "msg", f[3]));
      if (!started[n]) li.appendChild(el("div", "note", "Its span is not in the text shown."));
      list.appendChild(li);
    });
    if (!it.f.length) list.appendChild(el("li", "none", "No findings."));
    var right = el("div", "panel");
    right.appendChild(list);
    box.appendChild(right);
    return box;
  }

  function press(group, button) {
    var all = document.querySelectorAll('button[data-filter="' + group + '"]');
    for (var k = 0; k < all.length; k++) all[k].setAttribute("aria-pressed", String(all[k] === button));
  }

  var buttons = document.querySelectorAll("button[data-filter]");
  for (var b = 0; b < buttons.length; b++) {
    buttons[b].addEventListener("click", function (ev) {
      var button = ev.currentTarget;
      state[button.dataset.filter] = button.dataset.value;
      press(button.dataset.filter, button);
      filter();
    });
  }
  document.getElementById("q").addEventListener("input", function (ev) {
    state.q = ev.currentTarget.value.toLowerCase();
    filter();
  });
  prev.addEventListener("click", function () { state.page--; render(); });
  next.addEventListener("click", function () { state.page++; render(); });
  filter();
  document.body.dataset.ready = "true";
  document.body.dataset.readyMs = String(Math.round(performance.now()));
})();
