// The skip link: its href "#main" would be read by the hash router as a page called "main"
// ("there is no page at main"), so a click (or Enter) moves the focus to the page's content
// instead and leaves the address alone.

function skipToContent(event) {
  const main = document.getElementById("main");
  if (!main) return;
  event.preventDefault();
  main.focus();
  main.scrollIntoView({ block: "start" });
}

for (const link of document.querySelectorAll("a.skip-link")) link.addEventListener("click", skipToContent);
