"use strict";
const path = require("path");

function resolve(p, opts = {}) {
  const base = opts.base || process.cwd();
  if (!p) {
    return base;
  }
  return path.isAbsolute(p) ? p : path.join(base, p);
}

exports.resolve = resolve;
exports.join = function join(...parts) {
  return parts.filter(Boolean).reduce((a, b) => (a ? a + "/" + b : b), "");
};
module.exports.split = (p) => (p && typeof p === "string" ? p.split("/") : []);
