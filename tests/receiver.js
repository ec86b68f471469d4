// A local stand-in for GitHub's issue-comment API, for the gate's --post tests:
//   GET   /repos/O/R/issues/N/comments            -> [{id, url, body}, ...]
//   POST  /repos/O/R/issues/N/comments   {body}   -> 201 {id, url, body}
//   PATCH /repos/O/R/issues/comments/ID  {body}   -> 200 {id, url, body}
//   ANY   /echo-auth/...                          -> 500 whose body echoes the Authorization header
// GET honours per_page (default 30, at most 100) and page like GitHub. RECEIVER_SEED=N starts
// with N comments by someone else on issue 1 of o/r (so ours lands on a later page).
// Every request is appended to LOGFILE as one JSON line {method, url, authorization, body}.
// Usage: node tests/receiver.js PORT LOGFILE   (listens on 127.0.0.1 until killed)
"use strict";
const http = require("http");
const fs = require("fs");

const port = Number(process.argv[2]);
const log = process.argv[3];
const comments = []; // {id, issue, owner, repo, body}
let nextId = 1000;
for (let i = 0; i < Number(process.env.RECEIVER_SEED || 0); i++) {
  comments.push({id: nextId++, owner: "o", repo: "r", issue: "1", body: `looks good ${i}`});
}

function reply(res, status, obj) {
  const text = JSON.stringify(obj);
  res.writeHead(status, {"Content-Type": "application/json", "Content-Length": Buffer.byteLength(text)});
  res.end(text);
}

function view(c, host) {
  return {id: c.id, url: `http://${host}/repos/${c.owner}/${c.repo}/issues/comments/${c.id}`, body: c.body};
}

http.createServer((req, res) => {
  let data = "";
  req.setEncoding("utf8");
  req.on("data", (d) => { data += d; });
  req.on("end", () => {
    fs.appendFileSync(log, JSON.stringify({method: req.method, url: req.url,
      authorization: req.headers.authorization || null, body: data}) + "\n");
    const path = req.url.split("?")[0];
    const host = req.headers.host;
    let m;
    if (path.startsWith("/echo-auth/")) { // a careless server: its error echoes the request
      return reply(res, 500, {message: "internal error", request: {authorization: req.headers.authorization}});
    }
    if (req.headers.authorization !== "Bearer " + (process.env.RECEIVER_TOKEN || "")) {
      return reply(res, 401, {message: "Bad credentials"});
    }
    if ((m = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/))) {
      const [, owner, repo, issue] = m;
      if (req.method === "GET") {
        const q = new URLSearchParams(req.url.split("?")[1] || "");
        const per = Math.min(Number(q.get("per_page") || 30), 100), page = Number(q.get("page") || 1);
        return reply(res, 200, comments.filter((c) => c.owner === owner && c.repo === repo &&
          c.issue === issue).slice((page - 1) * per, page * per).map((c) => view(c, host)));
      }
      if (req.method === "POST") {
        let body;
        try { body = JSON.parse(data).body; } catch (e) { return reply(res, 400, {message: "bad JSON"}); }
        if (typeof body !== "string") return reply(res, 422, {message: "body required"});
        const c = {id: nextId++, owner, repo, issue, body};
        comments.push(c);
        return reply(res, 201, view(c, host));
      }
    }
    if ((m = path.match(/^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/)) && req.method === "PATCH") {
      const c = comments.find((x) => x.id === Number(m[3]) && x.owner === m[1] && x.repo === m[2]);
      if (!c) return reply(res, 404, {message: "Not Found"});
      let body;
      try { body = JSON.parse(data).body; } catch (e) { return reply(res, 400, {message: "bad JSON"}); }
      c.body = body;
      return reply(res, 200, view(c, host));
    }
    return reply(res, 404, {message: "Not Found"});
  });
}).listen(port, "127.0.0.1");
