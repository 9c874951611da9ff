// The dashboard's only script: confirmation of consequential buttons (the
// review queue's in a dialog listing each payout's full recipient), copy
// buttons beside addresses and links, and the review queue's select-all
// box. Everything works without it.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var zh = document.documentElement.lang === "zh";

  // copyButton puts a Copy button after el that copies its data-copy text:
  // through the clipboard API where the page may use it, else by selecting
  // the text and the browser's copy command.
  function copyButton(el) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy";
    b.textContent = zh ? "复制" : "Copy";
    b.setAttribute("aria-label", (zh ? "复制 " : "Copy ") + el.dataset.copy);
    b.addEventListener("click", function () {
      var text = el.dataset.copy;
      var done = function () {
        b.textContent = zh ? "已复制" : "Copied";
        b.classList.add("copied");
      };
      var fallback = function () {
        var range = document.createRange();
        range.selectNodeContents(el);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        if (document.execCommand("copy")) done();
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, fallback);
      } else {
        fallback();
      }
    });
    el.insertAdjacentElement("afterend", b);
  }
  document.querySelectorAll("[data-copy]").forEach(copyButton);

  // The review queue asks in a dialog that lists what is approved or
  // refused: order, amount, fee, network and the whole recipient address.
  var review = document.getElementById("review-form");
  var dialog = document.getElementById("review-confirm");
  var confirmed = null;
  if (review && dialog && typeof dialog.showModal === "function") {
    var item = document.getElementById("confirm-item");
    review.addEventListener("submit", function (e) {
      var b = e.submitter;
      if (confirmed === b) { confirmed = null; return; }
      e.preventDefault();
      var picked = Array.prototype.slice.call(review.querySelectorAll("input.pick:checked"));
      var refuse = b && b.value === "refuse";
      var title = document.getElementById("confirm-title");
      var list = document.getElementById("confirm-list");
      var reasonText = document.getElementById("confirm-reason");
      var ok = document.getElementById("confirm-ok");
      var reason = (document.getElementById("reason") || {}).value || "";
      list.textContent = "";
      reasonText.textContent = "";
      ok.hidden = false;
      if (picked.length === 0) {
        title.textContent = dialog.dataset.none;
        ok.hidden = true;
      } else if (refuse && reason.trim() === "") {
        title.textContent = dialog.dataset.reasonMissing;
        ok.hidden = true;
      } else {
        title.textContent = (refuse ? dialog.dataset.refuse : dialog.dataset.approve).replace("{n}", String(picked.length));
        if (refuse) reasonText.textContent = reason;
        ok.classList.toggle("danger", refuse);
      }
      picked.forEach(function (box) {
        var row = box.closest("tr").dataset;
        var li = item.content.firstElementChild.cloneNode(true);
        li.querySelector(".what").textContent = row.order + " · " + row.amount + " (+ " + row.fee + ") · " + row.network;
        var code = li.querySelector("code.addr");
        code.textContent = row.recipient;
        code.dataset.copy = row.recipient;
        list.appendChild(li);
        copyButton(code);
      });
      ok.onclick = function () {
        dialog.close();
        confirmed = b;
        review.requestSubmit(b);
      };
      dialog.showModal();
      (ok.hidden ? document.getElementById("confirm-cancel") : ok).focus();
    });
    document.getElementById("confirm-cancel").addEventListener("click", function () { dialog.close(); });
  }

  document.querySelectorAll("form").forEach(function (f) {
    if (f === review && dialog) return;
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
