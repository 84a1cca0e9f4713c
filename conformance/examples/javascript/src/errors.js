'use strict';
// Error objects of memory.read (INT-40, specs/errors.md).
//
// S6-ERR-01: "memory.read MUST fail fast with structured errors if:"
// S6-ERR-07: "The same invalid inputs MUST produce the same error type and message."
//   -> messages never contain the adapter root, an absolute resolved path or OS error text;
//      they show only request values (which are the same on every run).

// One table: code -> clause ID of specs/clauses.toml. Codes without a dedicated ERROR HANDLING
// clause use S6-ERR-01 (the generic "fail fast with structured errors" clause).
const ERROR_CLAUSES = Object.freeze({
  invalid_request: 'S6-ERR-01',
  invalid_query: 'S6-ERR-02', //          "query missing/empty"
  invalid_store_paths: 'S6-ERR-03', //    "store_paths missing/empty"
  invalid_budget: 'S6-ERR-04', //         "budget.max_excerpt_tokens <= 0"
  invalid_scoring: 'S6-ERR-01',
  invalid_trust_filter: 'S6-ERR-01',
  invalid_now_utc: 'S6-ERR-01',
  store_not_found: 'S6-ERR-05', //        "store_paths contains a path that does not exist"
  store_not_readable: 'S6-ERR-01',
  trust_snapshot_not_found: 'S6-ERR-01',
  invalid_trust_snapshot: 'S6-ERR-01',
});

class MemoryReadError extends Error {
  /**
   * @param {string} code one of ERROR_CLAUSES' keys
   * @param {string} path RFC 6901 JSON Pointer into the request ("" = whole request)
   * @param {string} message deterministic English sentence
   * @param {string} [clause] clause ID; defaults to the code's clause
   */
  constructor(code, path, message, clause) {
    super(message);
    if (!Object.prototype.hasOwnProperty.call(ERROR_CLAUSES, code)) {
      throw new TypeError(`unknown error code ${code}`);
    }
    this.name = 'MemoryReadError';
    this.code = code;
    this.path = path;
    this.clause = clause || ERROR_CLAUSES[code];
  }

  toJSON() {
    return { code: this.code, message: this.message, path: this.path, clause: this.clause };
  }
}

/** RFC 6901 reference token escaping: '~' -> '~0', '/' -> '~1' (in that order). */
function escapeToken(token) {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** pointer('budget', 'max_items') -> '/budget/max_items'; pointer() -> ''. */
function pointer(...tokens) {
  return tokens.map((t) => '/' + escapeToken(t)).join('');
}

/** A short, deterministic rendering of a request value for messages (like Python's !r). */
function show(value) {
  let s;
  if (value === undefined) return 'nothing';
  try {
    s = JSON.stringify(value);
  } catch {
    s = String(value);
  }
  if (s === undefined) s = String(value);
  return s.length > 80 ? s.slice(0, 77) + '...' : s;
}

module.exports = { ERROR_CLAUSES, MemoryReadError, pointer, escapeToken, show };
