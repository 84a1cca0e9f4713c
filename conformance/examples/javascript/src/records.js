'use strict';
// One store line -> a candidate or an invalid entry (JSONL STORE RECORD CONTRACT, HASHING).
//
// S6-REC-01: "A JSONL line is one JSON object (UTF-8)."
// S6-REC-11: "If a record fails schema validation, it MUST be ignored and counted as dropped
//             with reason: "invalid_record_schema"."
const { parseStrictJson, isPlainObject } = require('./json');
const { canonicalBytes, sha256Hex } = require('./canonical');
const { lower, compareCodePoints } = require('./text');
const { parseUtcTimestamp } = require('./timestamps');

const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * INT-22 record schema. null is never 'absent'. Returns true when the object is a valid record.
 *   memory_id: present, string ("" included)   text: present, string (may be empty)
 *   tags: absent or array of strings           refs: absent or array of JSON objects
 *   ts_utc: absent or a string (an invalid timestamp STRING does not invalidate, INT-20)
 * Unknown members are ignored (INT-23).
 */
function isValidRecord(obj) {
  if (!own(obj, 'memory_id') || typeof obj.memory_id !== 'string') return false;
  if (!own(obj, 'text') || typeof obj.text !== 'string') return false;
  if (own(obj, 'tags') && !(Array.isArray(obj.tags) && obj.tags.every((t) => typeof t === 'string'))) return false;
  if (own(obj, 'refs') && !(Array.isArray(obj.refs) && obj.refs.every(isPlainObject))) return false;
  if (own(obj, 'ts_utc') && typeof obj.ts_utc !== 'string') return false;
  return true;
}

/** INT-25: lowercase each tag (nothing else), deduplicate, sort by code point. */
function normalizeTags(tags) {
  return [...new Set(tags.map(lower))].sort(compareCodePoints);
}

/**
 * Parse one line (bytes without terminator). Returns
 *   {valid: true, memory_id, text, tags, refs, ts: {ns, normalized} | null, record_hash}
 *   {valid: false, memory_id, record_hash}                      (INT-19)
 */
// INT-18: "a line longer than 1,048,576 bytes (1 MiB, not counting its LF or CRLF terminator)
// is invalid (invalid_record_schema) whatever it holds, with memory_id """.
const MAX_LINE_BYTES = 1048576;

function parseRecordLine(lineBytes) {
  const length = lineBytes.length - (lineBytes[lineBytes.length - 1] === 0x0d ? 1 : 0);
  if (length > MAX_LINE_BYTES) {
    return { valid: false, memory_id: '', record_hash: sha256Hex(lineBytes) };
  }
  const parsed = parseStrictJson(lineBytes);
  if (!parsed.ok || !isPlainObject(parsed.value) || !isValidRecord(parsed.value)) {
    // INT-19: memory_id = the top-level "memory_id" when the line is a JSON object (under the
    // INT-15 parse rules: we require the whole strict parse, including the lexical checks, to
    // succeed) whose memory_id is a string; "" otherwise. record_hash = SHA-256 of the raw
    // line bytes (terminator removed, INT-14).
    const obj = parsed.ok && isPlainObject(parsed.value) ? parsed.value : null;
    const memoryId = obj !== null && own(obj, 'memory_id') && typeof obj.memory_id === 'string' ? obj.memory_id : '';
    return { valid: false, memory_id: memoryId, record_hash: sha256Hex(lineBytes) };
  }
  const obj = parsed.value;
  const tags = own(obj, 'tags') ? normalizeTags(obj.tags) : [];
  const refs = own(obj, 'refs') ? obj.refs : [];
  // INT-20: a ts_utc string that is not a valid UTC timestamp -> no ts_utc.
  const ts = own(obj, 'ts_utc') ? parseUtcTimestamp(obj.ts_utc) : null;
  // INT-02: record_hash preimage {memory_id, refs, tags, text, ts_utc?}; text exactly as read;
  // ts_utc the normalized string, key omitted without a valid ts; no store_path, no unknown members.
  const normalizedRecord = { memory_id: obj.memory_id, refs, tags, text: obj.text };
  if (ts !== null) normalizedRecord.ts_utc = ts.normalized;
  return {
    valid: true,
    memory_id: obj.memory_id,
    text: obj.text,
    tags,
    refs,
    ts,
    record_hash: sha256Hex(canonicalBytes(normalizedRecord)),
  };
}

module.exports = { parseRecordLine, isValidRecord, normalizeTags };
