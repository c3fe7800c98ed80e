import { createHash } from "node:crypto";
import type { RedisClient } from "@breakwater/queue";
import { Command } from "ioredis";
import { asBudgetUnavailable, budgetUnavailable, isSelfBounded, withRedis } from "./budget-redis";

/**
 * The budget engine's Lua scripts. Each one is a single atomic step on one project's keys (one
 * cluster slot thanks to the `{projectId}` hash tag). Amounts are integer nano-dollars passed as
 * decimal strings. Text handed back to Redis is either such a string, unchanged, or formatted with
 * %.0f: Redis would otherwise stringify large Lua numbers in exponent notation, which INCRBY rejects.
 *
 * Scope keys named inside records (a reservation's run and tag-rule counters, a confirm's
 * provisional targets) are derived from the project prefix of KEYS[1]; they share the hash tag,
 * so they live in the slot of the declared keys.
 */

// Helpers of every script that moves holds. Amounts stay the decimal strings they arrived as
// (ARGV, hold records) wherever Redis needs text: formatting a Lua number costs more than the
// Redis command it feeds.
const AMOUNTS = `
local function fmt(n) return string.format('%.0f', n) end
local function num(v) if v then return tonumber(v) or 0 end return 0 end
`;

// The scripts that add a batch's amounts to one counter (CHECK_MANY's held sums, INGEST's counters).
const SUMS = `
-- Adds amount texts with add(text): their sum at once while a double holds it exactly, otherwise
-- amount by amount.
local function add_amounts(texts, add)
  local sum = 0
  for _, t in ipairs(texts) do sum = sum + tonumber(t) end
  if sum < 9007199254740992 then
    add(fmt(sum))
  else
    for _, t in ipairs(texts) do add(t) end
  end
end
`;

const RELEASE = `
local function split_ref(ref)
  local r, p = string.match(ref, '^(.*):(%a)$')
  return r, p
end

-- Hold records are "amount|ref:p,ref:p|runId": rule refs never contain '|' or ',', and the
-- run id (any characters) comes last.
local function decode_hold(raw)
  local a, t, r = string.match(raw, '^(%d+)|([^|]*)|(.*)$')
  local refs = {}
  for ref in string.gmatch(t, '[^,]+') do refs[#refs + 1] = ref end
  return {a = tonumber(a), s = a, t = refs, r = r}
end

-- Takes a released hold's amount (number n, its text s) out of one held sum.
local function sub_field(sums, field, n, s)
  local left = redis.call('HINCRBY', sums, field, '-' .. s)
  if left <= 0 then redis.call('HDEL', sums, field) end
end

-- Removes a hold (reservation or uncounted-tally hold) and returns its decoded record, or nil.
local function release(holds, recs, sums, id)
  redis.call('ZREM', holds, id)
  local raw = redis.call('HGET', recs, id)
  if not raw then return nil end
  redis.call('HDEL', recs, id)
  local rec = decode_hold(raw)
  local a = rec.a
  if a ~= 0 then
    sub_field(sums, 'p', a, rec.s)
    if rec.r ~= '' then sub_field(sums, 'r:' .. rec.r, a, rec.s) end
    for _, ref in ipairs(rec.t) do
      local r = split_ref(ref)
      sub_field(sums, 't:' .. r, a, rec.s)
    end
  end
  return rec
end

local function release_expired(holds, recs, sums, now)
  local expired = redis.call('ZRANGEBYSCORE', holds, '-inf', now, 'LIMIT', 0, 256)
  for _, id in ipairs(expired) do release(holds, recs, sums, id) end
end
`;

/** Lua helpers of every script that moves holds (amount formatting, hold release); leases reuse them. */
export const HOLDS = AMOUNTS + RELEASE;

const COMMON = `${HOLDS}
local prefix = string.sub(KEYS[1], 1, #KEYS[1] - 5) -- KEYS[1] is always <prefix>built

-- Drops expired members of a ZSET and their fields in a companion HASH (bounded per call).
local function expire_map(zset, hash, now)
  local expired = redis.call('ZRANGEBYSCORE', zset, '-inf', now, 'LIMIT', 0, 256)
  for _, id in ipairs(expired) do
    redis.call('ZREM', zset, id)
    redis.call('HDEL', hash, id)
  end
end
`;

/**
 * CHECK. KEYS: 1 built, 2 holds, 3 holdRecords, 4 heldSums, then the counters a verdict reads:
 * the usage of each window that has a limit (daily, weekly, monthly order), the run's spend when
 * its cap binds, the spend of each matching tag rule.
 * ARGV: 1 now, 2 flags (mode h|a, then 1|0 for: reserve, run stopped, refresh TTLs, fold, a run
 * id follows, a binding run cap follows, tag rules follow), 3 estimate, 4 reservation id,
 * 5 reservation expiry, 6 codes of the limited windows (e.g. "m"), then one limit per code; then
 * only as flagged: run id; run cap; tag rule count and per rule ref, period code, limit; marker
 * ttl and holds ttl; fold amount, hold id and expiry.
 * Amounts are canonical non-negative integer text (or -1).
 * Returns {'REBUILD', missing markers…}, or the verdict line "A|D | reason | mode h|a | scope |
 * usage | held" (see verdict below); an allow with the reserve flag has reserved ARGV[4].
 * Only what a verdict needs travels and is read: one HMGET of held sums, one MGET of counters;
 * the scan for expired holds runs only when one may have expired (the built hash's field `x`).
 */
const CHECK_BODY = `
local now = tonumber(ARGV[1])
local flags = ARGV[2]
local estText = ARGV[3]
local est = tonumber(estText)
local codes = ARGV[6]
local nWin = #codes
local a = 7 + nWin -- the next optional argument
local runId = ''
if string.sub(flags, 6, 6) == '1' then runId = ARGV[a]; a = a + 1 end
local capped, runCap = false, -1
if string.sub(flags, 7, 7) == '1' then capped, runCap = true, tonumber(ARGV[a]); a = a + 1 end
local nTags = 0
if string.sub(flags, 8, 8) == '1' then nTags = tonumber(ARGV[a]); a = a + 1 end
local rule1 = a -- rule i: ref ARGV[rule1 + 3(i-1)], period code, limit
local tail = rule1 + 3 * nTags

-- Built markers, and 'x': the hold floor, a time no hold expires before (absent = unknown).
-- The common rule-less check asks with literal fields: no table to build and unpack.
local fields, built
if nTags == 0 then
  built = redis.call('HMGET', KEYS[1], 'p', 'x')
else
  fields = {'p', 'x'}
  for i = 1, nTags do fields[i + 2] = 't:' .. ARGV[rule1 + 3 * (i - 1)] end
  built = redis.call('HMGET', KEYS[1], unpack(fields))
end
local missing = nil
if not built[1] then missing = {'REBUILD', 'p'} end
for i = 3, nTags + 2 do
  if not built[i] then
    if missing == nil then missing = {'REBUILD'} end
    missing[#missing + 1] = fields[i]
  end
end
if missing ~= nil then return missing end
-- Key lifetimes are refreshed about once a minute per process, not on every check. Hold keys
-- empty themselves as holds expire (Redis deletes empty hashes and sets), so a TTL only matters
-- for a project that goes silent for good.
if string.sub(flags, 4, 4) == '1' then
  redis.call('PEXPIRE', KEYS[1], ARGV[tail])
  redis.call('PEXPIRE', KEYS[2], ARGV[tail + 1])
  redis.call('PEXPIRE', KEYS[3], ARGV[tail + 1])
  redis.call('PEXPIRE', KEYS[4], ARGV[tail + 1])
  tail = tail + 2
end

-- Expired holds are released before anything is read. The floor is at most the earliest expiry
-- in holds, so while now is below it nothing can have expired and the scan is skipped; once now
-- reaches it, the scan runs (exactly as it would on every check) and the floor moves up to the
-- earliest remaining expiry — never past the expiry a reservation made now would get, so holds
-- written by anything that does not know the floor cannot slip under it.
local floor = tonumber(built[2])
if floor == nil or floor <= now then
  ${RELEASE}
  release_expired(KEYS[2], KEYS[3], KEYS[4], now)
  local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  local floorText = ARGV[5]
  if first[2] ~= nil and tonumber(first[2]) < tonumber(floorText) then floorText = first[2] end
  redis.call('HSET', KEYS[1], 'x', floorText)
  floor = tonumber(floorText)
end

-- A hold: its expiry, its record, and its amount (as text) added to every held sum it names.
local function add_hold(id, n, text, run, refText, rules, exp)
  if tonumber(exp) < floor then
    redis.call('HSET', KEYS[1], 'x', exp)
    floor = tonumber(exp)
  end
  redis.call('ZADD', KEYS[2], exp, id)
  redis.call('HSET', KEYS[3], id, text .. '|' .. refText .. '|' .. run)
  if n > 0 then
    redis.call('HINCRBY', KEYS[4], 'p', text)
    if run ~= '' then redis.call('HINCRBY', KEYS[4], 'r:' .. run, text) end
    for i = 1, rules do redis.call('HINCRBY', KEYS[4], fields[i + 2], text) end
  end
end

-- Fail-open calls the SDK admitted while Breakwater was unreachable: counted before the verdict.
if string.sub(flags, 5, 5) == '1' then
  add_hold(ARGV[tail + 1], tonumber(ARGV[tail]), ARGV[tail], '', '', 0, ARGV[tail + 2])
end

-- Held amounts (one HMGET) and settled usage (one MGET) of the scopes that can bind.
-- A single field or counter is read with HGET / GET.
local heldTag = capped and 2 or 1
local held
if heldTag == 1 and nTags == 0 then
  held = {redis.call('HGET', KEYS[4], 'p')}
else
  local heldFields = {'p'}
  if capped then heldFields[2] = 'r:' .. runId end
  for i = 1, nTags do heldFields[heldTag + i] = fields[i + 2] end
  held = redis.call('HMGET', KEYS[4], unpack(heldFields))
end
local usage
if #KEYS == 5 then
  usage = {redis.call('GET', KEYS[5])}
elseif #KEYS > 5 then
  usage = redis.call('MGET', unpack(KEYS, 5))
else
  usage = {}
end
local usageTag = nWin + (capped and 1 or 0)

local heldP = num(held[1])
local bind, bindRem
local deny, denyRem
for i = 1, nWin do
  local rem = tonumber(ARGV[6 + i]) - (num(usage[i]) + heldP) - est
  if bind == nil or rem < bindRem then bind, bindRem = i, rem end
  if rem < 0 and (deny == nil or rem < denyRem) then deny, denyRem = i, rem end
end
-- The verdict line "verdict|reason|mode|scope|usage|held": the binding scope (a window's period
-- code, 'r' the run, 't'..i the i-th tag rule, '' none), then its settled usage and its held amount
-- exactly as Redis stores them (integer text, '' for none). The caller knows every limit and the
-- estimate and does the arithmetic: formatting three amounts here cost more than the whole verdict,
-- and a single bulk reply costs the client a fraction of what a seven-element array does to decode.
local function verdict(v, reason, mode, scope, u, h)
  return v .. '|' .. reason .. '|' .. mode .. '|' .. scope .. '|' .. (u or '') .. '|' .. (h or '')
end

local projectMode = string.sub(flags, 1, 1) == 'h' and 'h' or 'a'
if string.sub(flags, 3, 3) == '1' then
  if bind == nil then return 'D|run_stopped|h|||' end
  return verdict('D', 'run_stopped', 'h', string.sub(codes, bind, bind), usage[bind], held[1])
end
if deny ~= nil then
  return verdict('D', 'p', projectMode, string.sub(codes, deny, deny), usage[deny], held[1])
end
if capped then
  local used = num(usage[nWin + 1]) + num(held[2])
  if used + est > runCap then
    return verdict('D', 'agent_run', 'h', 'r', usage[nWin + 1], held[2])
  end
end
local refText = ''
local tagDeny, tagRem
for i = 1, nTags do
  local base = rule1 + 3 * (i - 1)
  local limit = tonumber(ARGV[base + 2])
  local ref = ARGV[base] .. ':' .. ARGV[base + 1]
  if i == 1 then refText = ref else refText = refText .. ',' .. ref end
  local used = num(usage[usageTag + i]) + num(held[heldTag + i])
  local rem = limit - used - est
  if rem < 0 and (tagDeny == nil or rem < tagRem) then tagDeny, tagRem = i, rem end
end
if tagDeny ~= nil then
  return verdict('D', 'tag', projectMode, 't' .. tagDeny, usage[usageTag + tagDeny], held[heldTag + tagDeny])
end

if string.sub(flags, 2, 2) == '1' then
  add_hold(ARGV[4], est, estText, runId, refText, nTags, ARGV[5])
end
if bind == nil then return 'A||' .. projectMode .. '|||' end
return verdict('A', '', projectMode, string.sub(codes, bind, bind), usage[bind], held[1])
`;

/**
 * CHECK_MANY: several checks of one project in one script, answered as if CHECK had run for each in
 * turn — each sees the holds of those before it. Only checks that name no binding run cap and match
 * no tag rule, and neither refresh lifetimes nor fold tallies, travel this way (the rest go alone).
 * KEYS: 1 built, 2 holds, 3 holdRecords, 4 heldSums, then the usage of each limited window.
 * ARGV: 1 now, 2 codes of the limited windows, then one limit per code; then the check count and
 * per check: flags (as CHECK's), estimate, reservation id, reservation expiry, run id ('' = none).
 * Returns {'REBUILD', 'p'}, or CHECK's verdict lines, one per check in order, joined by newlines.
 * The batch's reads (built markers, hold floor, held sum, usage) and its writes (one ZADD, one
 * HSET, one HINCRBY per held sum) are made once, not once per check.
 */
const CHECK_MANY_BODY = `
local now = tonumber(ARGV[1])
local codes = ARGV[2]
local nWin = #codes
local limits = {}
for i = 1, nWin do limits[i] = tonumber(ARGV[2 + i]) end
local at = 3 + nWin
local n = tonumber(ARGV[at])
local built = redis.call('HMGET', KEYS[1], 'p', 'x')
if not built[1] then return {'REBUILD', 'p'} end

local minExp, minExpText = nil, nil
for c = 1, n do
  local text = ARGV[at + 4 + 5 * (c - 1)]
  local e = tonumber(text)
  if minExp == nil or e < minExp then minExp, minExpText = e, text end
end
-- The hold floor, as CHECK keeps it (see there); the earliest expiry of the batch stands for the
-- expiry a reservation made now would get.
local floor = tonumber(built[2])
if floor == nil or floor <= now then
  ${RELEASE}
  release_expired(KEYS[2], KEYS[3], KEYS[4], now)
  local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  local floorText = minExpText
  if first[2] ~= nil and tonumber(first[2]) < minExp then floorText = first[2] end
  redis.call('HSET', KEYS[1], 'x', floorText)
  floor = tonumber(floorText)
end

local heldText = redis.call('HGET', KEYS[4], 'p')
local heldP = num(heldText)
local usage
if nWin == 1 then
  usage = {redis.call('GET', KEYS[5])}
elseif nWin > 1 then
  usage = redis.call('MGET', unpack(KEYS, 5))
else
  usage = {}
end
local settled = {}
for i = 1, nWin do settled[i] = num(usage[i]) end

local function verdict(v, reason, mode, scope, u, h)
  return v .. '|' .. reason .. '|' .. mode .. '|' .. scope .. '|' .. (u or '') .. '|' .. (h or '')
end

local out = {}
local zadd, hset = {}, {}
local added, addedTexts = 0, {}
local runs, runOrder = {}, {}
local holdFloor = nil
for c = 1, n do
  local o = at + 1 + 5 * (c - 1)
  local flags, estText, id, exp, runId = ARGV[o], ARGV[o + 1], ARGV[o + 2], ARGV[o + 3], ARGV[o + 4]
  local est = tonumber(estText)
  local bind, bindRem, deny, denyRem
  for i = 1, nWin do
    local rem = limits[i] - (settled[i] + heldP) - est
    if bind == nil or rem < bindRem then bind, bindRem = i, rem end
    if rem < 0 and (deny == nil or rem < denyRem) then deny, denyRem = i, rem end
  end
  local mode = string.sub(flags, 1, 1) == 'h' and 'h' or 'a'
  if string.sub(flags, 3, 3) == '1' then
    if bind == nil then out[c] = 'D|run_stopped|h|||'
    else out[c] = verdict('D', 'run_stopped', 'h', string.sub(codes, bind, bind), usage[bind], heldText) end
  elseif deny ~= nil then
    out[c] = verdict('D', 'p', mode, string.sub(codes, deny, deny), usage[deny], heldText)
  else
    if bind == nil then out[c] = 'A||' .. mode .. '|||'
    else out[c] = verdict('A', '', mode, string.sub(codes, bind, bind), usage[bind], heldText) end
    if string.sub(flags, 2, 2) == '1' then
      zadd[#zadd + 1] = exp
      zadd[#zadd + 1] = id
      hset[#hset + 1] = id
      hset[#hset + 1] = estText .. '||' .. runId
      local e = tonumber(exp)
      if holdFloor == nil or e < holdFloor then holdFloor = e end
      if est > 0 then
        heldP = heldP + est
        heldText = fmt(heldP)
        added = added + est
        addedTexts[#addedTexts + 1] = estText
        if runId ~= '' then
          if runs[runId] == nil then runs[runId] = {}; runOrder[#runOrder + 1] = runId end
          local r = runs[runId]
          r[#r + 1] = estText
        end
      end
    end
  end
end

if #zadd > 0 then
  if holdFloor < floor then redis.call('HSET', KEYS[1], 'x', fmt(holdFloor)) end
  redis.call('ZADD', KEYS[2], unpack(zadd))
  redis.call('HSET', KEYS[3], unpack(hset))
end
local function add_all(field, texts)
  add_amounts(texts, function(text) redis.call('HINCRBY', KEYS[4], field, text) end)
end
if added > 0 then add_all('p', addedTexts) end
for _, runId in ipairs(runOrder) do add_all('r:' .. runId, runs[runId]) end
return table.concat(out, '\\n')
`;

/**
 * CONFIRM. KEYS: 1 built, 2 holds, 3 holdRecords, 4 heldSums, 5 settled, 6 confirmed,
 * 7 confirmedExp, 8 provisional, 9 provisionalExp, 10 ingestedCalls, 11-13 usage d/w/m.
 * ARGV: 1 now, 2 reservation id, 3 call id ('' = none), 4 actual amount, 5-7 window keys d/w/m,
 * 8-10 window expiries d/w/m, 11 run ttl, 12 settled ttl, 13 confirmed ttl, 14 provisional ttl.
 * Returns 'settled' | 'duplicate' | 'not_found'.
 */
const CONFIRM_BODY = `
local now = tonumber(ARGV[1])
local resId, callId, amount = ARGV[2], ARGV[3], tonumber(ARGV[4])
release_expired(KEYS[2], KEYS[3], KEYS[4], now)
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
expire_map(KEYS[7], KEYS[6], now)
expire_map(KEYS[9], KEYS[8], now)
redis.call('ZREMRANGEBYSCORE', KEYS[10], '-inf', now)

local function remember_call()
  if callId ~= '' then
    redis.call('HSET', KEYS[6], callId, resId)
    redis.call('ZADD', KEYS[7], now + tonumber(ARGV[13]), callId)
    redis.call('PEXPIRE', KEYS[6], ARGV[13])
    redis.call('PEXPIRE', KEYS[7], ARGV[13])
  end
end

if callId ~= '' and redis.call('HEXISTS', KEYS[6], callId) == 1 then return 'duplicate' end
if redis.call('ZSCORE', KEYS[5], resId) then
  remember_call()
  return 'duplicate'
end
local score = redis.call('ZSCORE', KEYS[2], resId)
if not score or tonumber(score) <= now then return 'not_found' end
local rec = release(KEYS[2], KEYS[3], KEYS[4], resId)
if not rec then return 'not_found' end
redis.call('ZADD', KEYS[5], now + tonumber(ARGV[12]), resId)
redis.call('PEXPIRE', KEYS[5], ARGV[12])
remember_call()

-- The metadata event is the spend truth. A confirm moves the live counters provisionally, and only
-- when the call's event has not landed yet and the event can later replace it (needs a call id).
if amount > 0 and callId ~= '' and redis.call('HEXISTS', KEYS[1], 'p') == 1
    and not redis.call('ZSCORE', KEYS[10], callId) then
  local wk = {d = ARGV[5], w = ARGV[6], m = ARGV[7]}
  local wx = {d = ARGV[8], w = ARGV[9], m = ARGV[10]}
  local targets = {}
  for i, code in ipairs({'d', 'w', 'm'}) do
    redis.call('INCRBY', KEYS[10 + i], fmt(amount))
    redis.call('PEXPIREAT', KEYS[10 + i], wx[code])
    targets[#targets + 1] = KEYS[10 + i]
  end
  if rec.r ~= '' then
    local k = prefix .. 'run:' .. rec.r
    redis.call('INCRBY', k, fmt(amount))
    redis.call('PEXPIRE', k, ARGV[11])
    targets[#targets + 1] = k
  end
  for _, ref in ipairs(rec.t) do
    local r, code = split_ref(ref)
    if redis.call('HEXISTS', KEYS[1], 't:' .. r) == 1 then
      local k = prefix .. 't:' .. r .. ':' .. wk[code]
      redis.call('INCRBY', k, fmt(amount))
      redis.call('PEXPIREAT', k, wx[code])
      targets[#targets + 1] = k
    end
  end
  redis.call('HSET', KEYS[8], callId, cjson.encode({a = fmt(amount), k = targets}))
  redis.call('ZADD', KEYS[9], now + tonumber(ARGV[14]), callId)
  redis.call('PEXPIRE', KEYS[8], ARGV[14])
  redis.call('PEXPIRE', KEYS[9], ARGV[14])
end
return 'settled'
`;

/**
 * INGEST. KEYS: 1 built, 2 seenEvents, 3 provisional, 4 provisionalExp, 5 ingestedCalls, 6-8 usage d/w/m.
 * ARGV: 1 now, 2 seen ttl, 3 ingested-call ttl, 4 run ttl, 5-7 window keys d/w/m, 8-10 window
 * expiries d/w/m, 11 event count, then per event: member (call#attempt), call id, amount,
 * window mask (subset of "dwm": windows of the event that are current), run id ('' = none),
 * tag refs ("ref:p,ref:p" of matching rules whose window is current).
 * Returns the number of events applied, or -1 when the project is not built (the rebuild reads Postgres).
 * The batch's reads (which events and calls were already seen) are one ZMSCORE each, its marks one
 * ZADD each, and every counter moves once by the batch's sum: a script call costs Redis more than
 * the Lua around it, so the work per event is table bookkeeping, not commands.
 */
const INGEST_BODY = `
if redis.call('HEXISTS', KEYS[1], 'p') == 0 then return -1 end
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
expire_map(KEYS[4], KEYS[3], now)
local seenExp = now + tonumber(ARGV[2])
local icallExp = now + tonumber(ARGV[3])
local wk = {d = ARGV[5], w = ARGV[6], m = ARGV[7]}
local wx = {d = ARGV[8], w = ARGV[9], m = ARGV[10]}
local wkey = {d = KEYS[6], w = KEYS[7], m = KEYS[8]}
local n = tonumber(ARGV[11])
if n == 0 then return 0 end
local members, calls = {}, {}
for e = 1, n do
  local base = 12 + 6 * (e - 1)
  members[e], calls[e] = ARGV[base], ARGV[base + 1]
end
local seen = redis.call('ZMSCORE', KEYS[2], unpack(members))
local known = redis.call('ZMSCORE', KEYS[5], unpack(calls))
-- Confirms' provisional amounts exist only while a confirmed call's event has not landed.
local anyProvisional = redis.call('EXISTS', KEYS[3]) == 1

-- Counter moves, summed per key in order of first touch: amount texts and the key's expiry.
local moves, order = {}, {}
local function move(key, text, kind, at)
  local m = moves[key]
  if m == nil then
    m = {texts = {}, kind = kind, at = at}
    moves[key] = m
    order[#order + 1] = key
  end
  m.texts[#m.texts + 1] = text
end
local ruleLive = {}
local function rule_live(r)
  local live = ruleLive[r]
  if live == nil then
    live = redis.call('HEXISTS', KEYS[1], 't:' .. r) == 1
    ruleLive[r] = live
  end
  return live
end

local applied = 0
local seenAdd, callAdd = {}, {}
local seenNow, callNow = {}, {}
for e = 1, n do
  local member, callId = members[e], calls[e]
  if not seen[e] and not seenNow[member] then
    seenNow[member] = true
    seenAdd[#seenAdd + 1] = seenExp
    seenAdd[#seenAdd + 1] = member
    applied = applied + 1
    if not known[e] and not callNow[callId] then
      callNow[callId] = true
      callAdd[#callAdd + 1] = icallExp
      callAdd[#callAdd + 1] = callId
      -- The first event of a call replaces the provisional amount its confirm added.
      if anyProvisional then
        local raw = redis.call('HGET', KEYS[3], callId)
        if raw then
          local prov = cjson.decode(raw)
          for _, k in ipairs(prov.k) do
            if redis.call('EXISTS', k) == 1 then redis.call('DECRBY', k, prov.a) end
          end
          redis.call('HDEL', KEYS[3], callId)
          redis.call('ZREM', KEYS[4], callId)
        end
      end
    end
    local base = 12 + 6 * (e - 1)
    local amountText = ARGV[base + 2]
    if tonumber(amountText) > 0 then
      for code in string.gmatch(ARGV[base + 3], '%a') do move(wkey[code], amountText, 'at', wx[code]) end
      local runId = ARGV[base + 4]
      if runId ~= '' then move(prefix .. 'run:' .. runId, amountText, 'in', ARGV[4]) end
      for ref in string.gmatch(ARGV[base + 5], '[^,]+') do
        local r, code = split_ref(ref)
        if rule_live(r) then move(prefix .. 't:' .. r .. ':' .. wk[code], amountText, 'at', wx[code]) end
      end
    end
  end
end
if #seenAdd > 0 then redis.call('ZADD', KEYS[2], unpack(seenAdd)) end
if #callAdd > 0 then redis.call('ZADD', KEYS[5], unpack(callAdd)) end
for _, key in ipairs(order) do
  local m = moves[key]
  add_amounts(m.texts, function(text) redis.call('INCRBY', key, text) end)
  if m.kind == 'at' then redis.call('PEXPIREAT', key, m.at) else redis.call('PEXPIRE', key, m.at) end
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[5], ARGV[3])
return applied
`;

/**
 * REBUILD_APPLY. KEYS: 1 built, 2 seenEvents, 3 provisional, 4 provisionalExp, 5.. counters to set.
 * ARGV: 1 scope ('p' = project, else rule-only), 2 marker ttl, 3 seen expiry (abs ms), 4 now,
 * 5 counter count, per counter: value, expiry kind ('at'|'in'), expiry value;
 * then seen count + members; then marker field count + fields; then 'c' on a Redis Cluster.
 * A project rebuild on a cluster also records the node that built the marker (field `n`, its
 * cluster id): a replica promoted with this marker is then known to hold counters another node
 * wrote (see promoted-masters.ts). A rule-only rebuild leaves `n` alone.
 * Returns 1 when applied, 0 when another rebuild already did it.
 */
const REBUILD_APPLY_BODY = `
if ARGV[1] == 'p' then
  if redis.call('HEXISTS', KEYS[1], 'p') == 1 then return 0 end
  -- Confirms' provisional amounts lived in the counters being replaced by the events' truth:
  -- forget them, or a later event would subtract an amount that is no longer there.
  redis.call('DEL', KEYS[3], KEYS[4])
end
local n = tonumber(ARGV[5])
local i = 6
for c = 1, n do
  local key = KEYS[4 + c]
  redis.call('SET', key, ARGV[i])
  if ARGV[i + 1] == 'at' then redis.call('PEXPIREAT', key, ARGV[i + 2]) else redis.call('PEXPIRE', key, ARGV[i + 2]) end
  i = i + 3
end
local nSeen = tonumber(ARGV[i]); i = i + 1
for s = 1, nSeen do
  redis.call('ZADD', KEYS[2], 'NX', ARGV[3], ARGV[i]); i = i + 1
end
if nSeen > 0 then redis.call('PEXPIREAT', KEYS[2], ARGV[3]) end
local nFields = tonumber(ARGV[i]); i = i + 1
for f = 1, nFields do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[4]); i = i + 1
end
if ARGV[1] == 'p' and ARGV[i] == 'c' then redis.call('HSET', KEYS[1], 'n', redis.call('CLUSTER', 'MYID')) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** Deletes the lock only when we still hold it. KEYS: 1 lock. ARGV: 1 token. */
const UNLOCK_BODY = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export interface LuaScript {
  name: string;
  source: string;
  sha: string;
}

/**
 * The first line of every script Breakwater sends. With a shebang, Redis 7 treats a script as a
 * function-style script: on a cluster it refuses any key outside the slot of the declared KEYS
 * (no `allow-cross-slot-keys` flag), so a script that strays from its project's hash tag fails in
 * tests instead of silently working on one node and failing on another in production.
 */
export const LUA_SHEBANG = "#!lua\n";

/** A script from its body: shebang first, its sha1 computed once for EVALSHA. */
export function luaScript(name: string, body: string): LuaScript {
  const source = LUA_SHEBANG + body;
  return { name, source, sha: createHash("sha1").update(source).digest("hex") };
}

function script(name: string, body: string, withCommon = true): LuaScript {
  return luaScript(name, withCommon ? COMMON + body : body);
}

export const CHECK_SCRIPT = script("check", AMOUNTS + CHECK_BODY, false);
export const CHECK_MANY_SCRIPT = script("check-many", AMOUNTS + SUMS + CHECK_MANY_BODY, false);
export const CONFIRM_SCRIPT = script("confirm", CONFIRM_BODY);
export const INGEST_SCRIPT = script("ingest", SUMS + INGEST_BODY);
export const REBUILD_APPLY_SCRIPT = script("rebuild-apply", REBUILD_APPLY_BODY, false);
export const UNLOCK_SCRIPT = script("unlock", UNLOCK_BODY, false);

/**
 * Runs a script in one round trip: EVALSHA, and only when the server does not know the script
 * (NOSCRIPT after a restart or SCRIPT FLUSH) a second EVAL that also caches it server-side.
 */
export async function runScript(
  redis: RedisClient,
  s: LuaScript,
  keys: string[],
  args: (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(s.sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (err instanceof Error && err.message.startsWith("NOSCRIPT")) {
      return redis.eval(s.source, keys.length, ...keys, ...args);
    }
    throw err;
  }
}

const NO_ARGS: string[] = [];
const UTF8_REPLIES = { replyEncoding: "utf8" as const }; // what redis.evalsha asks for

/**
 * A command whose arguments are already a flat list of strings. ioredis's Command copies its
 * arguments with `Array.prototype.flat`, which costs about 2.3 µs for the check script's 15
 * arguments — more than the rest of the command's construction; this skips it. Only for a client
 * without a key prefix (the prefix is applied in that constructor).
 */
class FlatCommand extends Command {
  constructor(name: string, args: string[]) {
    super(name, NO_ARGS, UTF8_REPLIES);
    this.args = args;
  }
}

/** A RESP bulk string. */
export function respBulk(text: string): string {
  return `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
}

/** A RESP bulk string of text known to be ASCII (decimal numbers, ids, flags, key names built from them). */
export function respBulkAscii(text: string): string {
  return `$${text.length}\r\n${text}\r\n`;
}

/**
 * An EVALSHA whose request is already encoded: the caller keeps the bulk strings of what does not
 * change between its calls (a project's key names and limits) and encodes only the rest, where
 * ioredis would measure and format every argument of every call again.
 */
class EncodedEvalsha extends Command {
  /** `args` is the command's arguments as ioredis would hold them (for tracing and error reports). */
  constructor(
    private readonly resp: string,
    args: string[],
  ) {
    super("evalsha", NO_ARGS, UTF8_REPLIES);
    this.args = args;
  }
  override toWritable(): string {
    return this.resp;
  }
}

const throwBudgetUnavailable = (err: unknown): never => {
  throw asBudgetUnavailable(err);
};

/**
 * `withRedis(redis, () => runScript(redis, s, keys, args), timeoutMs)` — the same answers and the
 * same BUDGET_UNAVAILABLE mapping — built for the hot paths: on a self-bounded client it chains one
 * handler onto the command's promise instead of three async frames and a closure.
 */
export function runBudgetScript(
  redis: RedisClient,
  s: LuaScript,
  keys: string[],
  args: string[],
  timeoutMs?: number,
): Promise<unknown> {
  return sendScript(redis, s, keys, args, null, asIs, timeoutMs);
}

/**
 * One EVALSHA of `s` for a caller that has also encoded `keys` and `args` as RESP bulk strings, in
 * order (`encoded`), and settles its own promise: on a self-bounded client without a key prefix the
 * command is written as encoded (otherwise, and for the NOSCRIPT retry, `keys` and `args` are sent);
 * the reply goes to `onReply`, a failure (as BUDGET_UNAVAILABLE) to `onError`, from the one
 * continuation the command's promise gets — no promise of its own and no extra microtask per
 * command. `onReply` must not throw.
 */
export function sendEncodedScript(
  redis: RedisClient,
  s: LuaScript,
  keys: string[],
  args: string[],
  encoded: string,
  onReply: (reply: unknown) => void,
  onError: (err: unknown) => void,
): void {
  if (
    !isSelfBounded(redis) ||
    redis.options.keyPrefix ||
    redis.status === "end" ||
    redis.status === "close"
  ) {
    sendScript(redis, s, keys, args, encoded, onReply).then(undefined, onError);
    return;
  }
  let command: EncodedEvalsha;
  try {
    command = encodedEvalsha(s, keys, args, encoded);
    redis.sendCommand(command);
  } catch (err) {
    onError(asBudgetUnavailable(err));
    return;
  }
  command.promise.then(onReply, (err: unknown) => {
    evalOnNoScript(redis, s, keys, args, err).then(onReply, (e: unknown) => onError(asBudgetUnavailable(e)));
  });
}

/** After a failed EVALSHA: the script sent whole (EVAL, which also caches it) when Redis did not know it, else the failure. */
function evalOnNoScript(
  redis: RedisClient,
  s: LuaScript,
  keys: string[],
  args: string[],
  err: unknown,
): Promise<unknown> {
  if (err instanceof Error && err.message.startsWith("NOSCRIPT")) {
    return redis.eval(s.source, keys.length, ...keys, ...args);
  }
  return Promise.reject(err);
}

/** The EVALSHA of `s` written as `encoded` (its keys and args as RESP bulk strings, in order). */
function encodedEvalsha(s: LuaScript, keys: string[], args: string[], encoded: string): EncodedEvalsha {
  const nKeys = String(keys.length);
  return new EncodedEvalsha(
    `*${3 + keys.length + args.length}\r\n$7\r\nevalsha\r\n$${s.sha.length}\r\n${s.sha}\r\n$${nKeys.length}\r\n${nKeys}\r\n${encoded}`,
    evalshaArgs(s, keys, args),
  );
}

/** EVALSHA's arguments as one flat list: sha, key count, keys, args. */
function evalshaArgs(s: LuaScript, keys: string[], args: string[]): string[] {
  const all = [s.sha, String(keys.length)];
  for (let i = 0; i < keys.length; i++) all.push(keys[i]!);
  for (let i = 0; i < args.length; i++) all.push(args[i]!);
  return all;
}

const asIs = (reply: unknown) => reply;

/** One EVALSHA of `s` (pre-encoded when `encoded` is given), its reply through `onReply`, failures as BUDGET_UNAVAILABLE. */
function sendScript<T>(
  redis: RedisClient,
  s: LuaScript,
  keys: string[],
  args: string[],
  encoded: string | null,
  onReply: (reply: unknown) => T | Promise<T>,
  timeoutMs?: number,
): Promise<T> {
  if (!isSelfBounded(redis)) {
    return withRedis(redis, () => runScript(redis, s, keys, args), timeoutMs).then(onReply);
  }
  if (redis.status === "end" || redis.status === "close") return Promise.reject(budgetUnavailable());
  let sent: Promise<unknown>;
  try {
    if (redis.options.keyPrefix) {
      sent = redis.evalsha(s.sha, keys.length, ...keys, ...args);
    } else {
      const command =
        encoded === null
          ? new FlatCommand("evalsha", evalshaArgs(s, keys, args))
          : encodedEvalsha(s, keys, args, encoded);
      redis.sendCommand(command);
      sent = command.promise;
    }
  } catch (err) {
    return Promise.reject(asBudgetUnavailable(err));
  }
  return sent.then(onReply, (err: unknown) =>
    evalOnNoScript(redis, s, keys, args, err).then(onReply, throwBudgetUnavailable),
  );
}
