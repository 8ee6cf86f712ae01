// The WebSocket to the host (NETWORK.md): one JSON object a message; reconnects with
// backoff (0.5 s doubling to 10 s) when the connection drops, with the same token.

export class Connection {
  constructor(token, handlers) {
    this.token = token;
    this.handlers = handlers; // {message(msg), state(name, detail)}
    this.delay = 500;
    this.ws = null;
    this.everOpen = false;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/ws?token=${encodeURIComponent(this.token)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 500;
      this.handlers.state(this.everOpen ? "reconnected" : "open");
      this.everOpen = true;
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handlers.message(msg);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, 10000);
      this.handlers.state("lost", { wait, code: event.code, reason: event.reason });
      setTimeout(() => this.open(), wait);
    });
  }

  act(action) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "act", action }));
      return true;
    }
    return false;
  }
}
