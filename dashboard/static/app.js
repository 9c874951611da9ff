// The dashboard's only script: confirmation of consequential buttons and
// the review queue's select-all box. Everything works without it.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var zh = document.documentElement.lang === "zh";
  document.querySelectorAll("form").forEach(function (f) {
    f.addEventListener("submit", function (e) {
      if (document.documentElement.dataset.noconfirm === "1") return;
      // The button's own question, else the form's, else the plain one
      // for forms marked confirm.
      var b = e.submitter;
      var msg = (b && b.dataset.confirm) || f.dataset.confirm ||
        (f.classList.contains("confirm") ? (zh ? "确定吗？" : "Are you sure?") : "");
      if (!msg) return;
      msg = msg.replace("{n}", String(document.querySelectorAll("input.pick:checked").length));
      if (!window.confirm(msg)) e.preventDefault();
    });
  });
  var all = document.getElementById("select-all");
  if (all) {
    all.addEventListener("change", function () {
      document.querySelectorAll("input.pick").forEach(function (b) { b.checked = all.checked; });
    });
  }
});
