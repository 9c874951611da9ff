// The dashboard's only script: confirmation of destructive forms and the
// review queue's select-all box. Everything works without it.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form.confirm").forEach(function (f) {
    f.addEventListener("submit", function (e) {
      if (document.documentElement.dataset.noconfirm === "1") return;
      if (!window.confirm(document.documentElement.lang === "zh" ? "确定吗？" : "Are you sure?")) e.preventDefault();
    });
  });
  var all = document.getElementById("select-all");
  if (all) {
    all.addEventListener("change", function () {
      document.querySelectorAll("input.pick").forEach(function (b) { b.checked = all.checked; });
    });
  }
});
