// The WebSocket to the host (NETWORK.md): one JSON object a message; reconnects with
// backoff (0.5 s doubling to 10 s) when the connection drops, with the same token. A
// socket refused before it opened may be a link the host no longer knows (it dealt a new
// table): the page's own URL answers 403 then, and trying again would not help.

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
    let opened = false;
    ws.addEventListener("open", () => {
      opened = true;
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
    ws.addEventListener("close", async (event) => {
      if (this.ws !== ws) return;
      if (!opened && await this.refused()) {
        this.handlers.state("refused");
        return;
      }
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, 10000);
      this.handlers.state("lost", { wait, code: event.code, reason: event.reason });
      setTimeout(() => this.open(), wait);
    });
  }

  async refused() {
    try {
      const answer = await fetch(location.href, { method: "HEAD", cache: "no-store" });
      return answer.status === 403;
    } catch {
      return false; // the host is not reachable: a drop, tried again
    }
  }

  act(action) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify({ type: "act", action }));
      return true;
    }
    return false;
  }
}
