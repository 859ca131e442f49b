// GraphiQL on GET /graphql, started from a file (the API's Content-Security-Policy allows no
// inline script). Queries and mutations go to this page's own address; subscriptions to the same
// address over a WebSocket (graphql-transport-ws, as the dashboard's).
const container = document.getElementById("graphiql");
const url = window.location.href.split(/[?#]/)[0];
const socket = new URL(url);
socket.protocol = socket.protocol === "https:" ? "wss:" : "ws:";
const fetcher = window.GraphiQL.createFetcher({
  url,
  wsClient: window.graphqlWs.createClient({ url: socket.toString(), lazy: true }),
});
window.ReactDOM.render(
  window.React.createElement(window.GraphiQL, {
    fetcher,
    defaultEditorToolsVisibility: true,
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: false,
  }),
  container,
);
