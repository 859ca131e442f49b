// A minimal graphql-transport-ws client (the protocol of the `graphql-ws` library):
//   client → connection_init;  server → connection_ack
//   client → subscribe {id, payload};  server → next* then complete (or error)
//   either side → ping, answered by pong;  client → complete to stop.
// One socket per subscription keeps the bookkeeping trivial; the dashboard opens one at a time.

import { loadDocument, websocketUrl } from "./graphql.js";
import { authHeaders } from "./session.js";

const PROTOCOL = "graphql-transport-ws";
const SUBSCRIPTION_ID = "1";
// The server closes with 4403/4400/4500… codes that carry a reason; 1000 is a normal close.
const NORMAL_CLOSE = 1000;

/**
 * Subscribe with the operation `operationName` of document `path`. Callbacks: onNext(data), onError(message), onComplete(),
 * onStatus("connecting" | "live" | "closed"). Returns a function that stops the subscription.
 */
export function subscribe(path, operationName, variables, { onNext, onError, onComplete, onStatus }) {
  let socket = null;
  let finished = false;

  const finish = (callback, ...args) => {
    if (finished) return;
    finished = true;
    onStatus?.("closed");
    callback?.(...args);
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(NORMAL_CLOSE);
  };

  const send = (message) => socket.send(JSON.stringify(message));

  onStatus?.("connecting");
  loadDocument(path)
    .then((document) => {
      if (finished) return;
      socket = new WebSocket(websocketUrl(), PROTOCOL);
      socket.addEventListener("open", () => send({ type: "connection_init", payload: { ...authHeaders() } }));
      socket.addEventListener("message", (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch {
          finish(onError, "the server sent a message that is not JSON");
          return;
        }
        switch (message.type) {
          case "connection_ack":
            onStatus?.("live");
            send({
              id: SUBSCRIPTION_ID,
              type: "subscribe",
              payload: { query: document, operationName, variables },
            });
            break;
          case "ping":
            send({ type: "pong" });
            break;
          case "next":
            if (message.payload?.errors?.length) {
              finish(onError, message.payload.errors.map((e) => e.message).join("; "));
            } else {
              onNext?.(message.payload.data);
            }
            break;
          case "error":
            finish(onError, (message.payload ?? []).map((e) => e.message).join("; ") || "subscription refused");
            break;
          case "complete":
            finish(onComplete);
            break;
          default:
            break; // pong and anything newer: nothing to do
        }
      });
      socket.addEventListener("close", (event) => {
        if (finished) return;
        const reason = event.reason ? `: ${event.reason}` : "";
        finish(onError, `the live connection closed (code ${event.code}${reason})`);
      });
    })
    .catch((error) => finish(onError, error.message));

  return function stop() {
    if (finished) return;
    if (socket?.readyState === WebSocket.OPEN) send({ id: SUBSCRIPTION_ID, type: "complete" });
    finish(null);
  };
}
