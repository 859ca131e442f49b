// Swagger UI on /schema/swagger, started from a file (the API's Content-Security-Policy allows no
// inline script): the OpenAPI document's address is the container's data-openapi attribute.
const container = document.getElementById("swagger-ui");
window.ui = window.SwaggerUIBundle({
  url: container.dataset.openapi,
  domNode: container,
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [window.SwaggerUIBundle.presets.apis],
});
