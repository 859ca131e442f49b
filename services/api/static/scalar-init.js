// Scalar on /schema/scalar, started from a file (the API's Content-Security-Policy allows no inline
// script): the OpenAPI document's address is the container's data-openapi attribute, and the
// configuration is this object (no inline JSON). Nothing that needs Scalar's own servers: no fonts
// from its CDN, no "Ask AI" agent (it reads a registry through proxy.scalar.com), no telemetry,
// no button to its hosted client; no token kept in the browser's storage.
const container = document.getElementById("scalar");
window.Scalar.createApiReference(container, {
  url: container.dataset.openapi,
  withDefaultFonts: false,
  agent: { disabled: true },
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  persistAuth: false,
});
