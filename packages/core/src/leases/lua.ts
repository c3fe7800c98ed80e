import { HOLDS, type LuaScript, luaScript } from "../budgets/lua";

/**
 * Lua scripts of run leases. Each is one atomic step on one project's keys (one cluster slot: the
 * `{projectId}` hash tag). A lease's claim is a hold beside the budget reservations — same ZSET of
 * expiries, same records, same held sums (`p` and `r:<run>`) — so every check sees it as held spend
 * and every check's sweep of expired holds returns an expired lease's claim by itself.
 *
 * Lease record (HASH `lse:<id>`): run, h (holder), g (current generation), f (the generation the
 * current one was renewed from, '' for a grant), st (l live, e ended by a renewal's verdict,
 * s surrendered, x expired), exp (ms), rate (nano-dollars per token, the worst case over the
 * declared chain), ch0 (chain as granted), ch (declared chain, unioned on renewals), fo (fail_open
 * 1|0), gt (granted tokens of this generation), d0 (drawn tokens when it began), sp (tokens
 * reported spent, cumulative), cf (tokens confirmed, cumulative), dr (tokens accounted: drawn from
 * a claim or bridged), ans (the answer that created the current generation, JSON), cr (created ms).
 *
 * Spend reaches the counters once: a confirm moves them provisionally (the call's metadata event
 * replaces it) and draws the claim down by the tokens not yet accounted; spend a renewal or
 * surrender reports beyond what confirms accounted, and fail-open tallies, become a lapsing hold
 * (like the check's fold) until the calls' own events land.
 */
const LEASE_COMMON = `${HOLDS}
local prefix = string.sub(KEYS[1], 1, #KEYS[1] - 5) -- KEYS[1] is always <prefix>built
local function lease_key(id) return prefix .. 'lse:' .. id end
local function run_key(r) return prefix .. 'lrun:' .. r end

-- A hold of 'amount' (number) for run, expiring at exp; keeps the checks' expiry floor below it.
local function add_hold(id, run, amount, exp)
  if amount <= 0 then return end
  local text = fmt(amount)
  redis.call('ZADD', KEYS[2], exp, id)
  redis.call('HSET', KEYS[3], id, text .. '||' .. run)
  redis.call('HINCRBY', KEYS[4], 'p', text)
  if run ~= '' then redis.call('HINCRBY', KEYS[4], 'r:' .. run, text) end
  local floor = redis.call('HGET', KEYS[1], 'x')
  if floor and tonumber(floor) > exp then redis.call('HSET', KEYS[1], 'x', fmt(exp)) end
end

-- The outstanding claim of a lease (nanos).
local function claim_of(id)
  local raw = redis.call('HGET', KEYS[3], id)
  if not raw then return 0 end
  return decode_hold(raw).a
end

-- Takes up to n nanos off a lease's claim; returns what was taken.
local function draw_claim(id, run, n)
  local raw = redis.call('HGET', KEYS[3], id)
  if not raw or n <= 0 then return 0 end
  local rec = decode_hold(raw)
  local d = math.min(rec.a, n)
  if d <= 0 then return 0 end
  local dt = fmt(d)
  sub_field(KEYS[4], 'p', d, dt)
  if run ~= '' then sub_field(KEYS[4], 'r:' .. run, d, dt) end
  if rec.a - d <= 0 then
    redis.call('HDEL', KEYS[3], id)
    redis.call('ZREM', KEYS[2], id)
  else
    redis.call('HSET', KEYS[3], id, fmt(rec.a - d) .. '||' .. run)
  end
  return d
end

-- Ends a lease: its claim returns, it leaves the live sets, its record remembers why.
local function end_lease(id, state)
  local k = lease_key(id)
  local run = redis.call('HGET', k, 'run')
  release(KEYS[2], KEYS[3], KEYS[4], id)
  redis.call('ZREM', KEYS[5], id)
  if run then
    redis.call('ZREM', run_key(run), id)
    redis.call('HSET', k, 'st', state)
  end
end

-- Leases past their expiry (bounded per call; every lease script runs it).
local function sweep(now)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now, 'LIMIT', 0, 64)
  for _, id in ipairs(expired) do end_lease(id, 'x') end
end

local function period_name(c)
  if c == 'd' then return 'daily' elseif c == 'w' then return 'weekly' end
  return 'monthly'
end

-- Spend reported beyond what was accounted, plus fail-open tokens: a lapsing hold (exactly once:
-- the hold id names the generation that reported it).
local function fold(holdId, run, rate, tokens, exp)
  if tokens > 0 then add_hold(holdId, run, math.ceil(tokens * rate), exp) end
end

-- Unions a chain ("provider<TAB>model" items joined by LF) into another, keeping order.
local function union_chain(base, extra)
  if extra == '' then return base end
  local seen, out = {}, {}
  for item in string.gmatch(base .. '\\n' .. extra, '[^\\n]+') do
    if not seen[item] then seen[item] = true; out[#out + 1] = item end
  end
  return table.concat(out, '\\n')
end

--[[ Sizing, shared by grant and renew. ARGV: 1 now, 2 mode h|a, 3 window codes, 4 run cap ('-1'
none), 5 tokens of one call, 6 holder cap, 7 max grant tokens, 8 final-grant calls, 9 expiry ms,
10 refresh interval text, 11 lease length text, 12 holds ttl, 13 fold expiry ms, 14 verdict from
the catalogue and runtime ('' | 'I:<reason>' | 'S:<stop reason>'), 15 run control opt-in 1|0,
16 rate (nanos/token), 17 chain, 18 lease id, 19 holder id, 20-23 per script, 24.. one limit per
window code. KEYS 6.. : 6 lease record, 7 run set, 8.. usage of each limited window. ]]
local function verdict(run, rate, holders, leaseId, generation)
  local nWin = #ARGV[3]
  local heldP = num(redis.call('HGET', KEYS[4], 'p'))
  local bind, bRem, bUsed, bLimit, bName
  for i = 1, nWin do
    local limit = tonumber(ARGV[23 + i])
    local used = num(redis.call('GET', KEYS[7 + i])) + heldP
    local rem = limit - used
    if bind == nil or rem < bRem then
      bind, bRem, bUsed, bLimit, bName = i, rem, used, limit, period_name(string.sub(ARGV[3], i, i))
    end
  end
  if ARGV[4] ~= '-1' then
    local cap = tonumber(ARGV[4])
    local used = num(redis.call('GET', prefix .. 'run:' .. run)) + num(redis.call('HGET', KEYS[4], 'r:' .. run))
    if bind == nil or cap - used < bRem then bind, bRem, bUsed, bLimit, bName = 0, cap - used, used, cap, 'agent_run' end
  end
  local mode = ARGV[2]
  local ans = {k = 'G', m = mode, lim = '0', used = '0', rem = '0', run = run}
  if bind ~= nil then
    ans.lim, ans.used, ans.rem = fmt(bLimit), fmt(bUsed), fmt(math.max(0, bRem))
  end
  local pre = ARGV[14]
  if string.sub(pre, 1, 2) == 'I:' then
    ans.k, ans.ir = 'I', string.sub(pre, 3)
    return ans
  end
  if string.sub(pre, 1, 2) == 'S:' then
    ans.k, ans.dp, ans.m, ans.rem = 'D', 'run_stopped', 'h', '0'
    if ARGV[15] == '1' then ans.rc = string.sub(pre, 3) end
    return ans
  end
  local perCall = tonumber(ARGV[5])
  if mode == 'h' and bind ~= nil and bRem < perCall * rate then
    ans.k, ans.dp = 'D', bName
    return ans
  end
  if holders > tonumber(ARGV[6]) then return nil end
  local maxGrant = tonumber(ARGV[7])
  local share, granted, final
  if bind == nil then
    share, granted, final = 2 * maxGrant, maxGrant, '0'
  else
    share = math.floor(math.max(0, bRem) / rate / holders)
    if share <= tonumber(ARGV[8]) * perCall then
      granted, final = share, '1'
    else
      granted, final = math.min(math.floor(share / 2), maxGrant), '0'
    end
  end
  ans.id, ans.g, ans.gt, ans.hs, ans.fg = leaseId, tostring(generation), fmt(granted), fmt(share), final
  ans.ri, ans.ll, ans.pm = ARGV[10], ARGV[11], mode
  return ans
end

local function keep_lease(k, now)
  redis.call('PEXPIRE', KEYS[2], ARGV[12])
  redis.call('PEXPIRE', KEYS[3], ARGV[12])
  redis.call('PEXPIRE', KEYS[4], ARGV[12])
  redis.call('PEXPIRE', KEYS[5], ARGV[12])
  redis.call('PEXPIRE', KEYS[7], ARGV[12])
end
`;

/**
 * GRANT. KEYS: 1 built, 2 holds, 3 holdRecords, 4 heldSums, 5 lease index, 6 new lease record,
 * 7 run set, 8.. usage of each limited window. ARGV as the sizing block above, with 20 run id,
 * 21 fail_open 1|0, 22 tombstone ms.
 * Returns {'REBUILD'} | {'H'} (holder cap) | {'A', answer JSON} (an answer; for an ineligible or
 * denied grant nothing is stored) .
 */
const GRANT_BODY = `
local now = tonumber(ARGV[1])
if redis.call('HEXISTS', KEYS[1], 'p') == 0 then return {'REBUILD'} end
sweep(now)
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', now)
local run, holder, id = ARGV[20], ARGV[19], ARGV[18]
-- The holder already holds this run: the same request again gets its current answer (a grant whose
-- answer was lost); a different chain or posture is refused like one holder too many.
local live = redis.call('ZRANGE', KEYS[7], 0, -1)
for _, other in ipairs(live) do
  local f = redis.call('HMGET', lease_key(other), 'h', 'ch0', 'fo', 'ans')
  if f[1] == holder then
    if f[2] == ARGV[17] and f[3] == ARGV[21] and f[4] then return {'A', f[4]} end
    return {'H'}
  end
end
local rate = tonumber(ARGV[16])
local ans = verdict(run, rate, #live + 1, id, 1)
if ans == nil then return {'H'} end
if ans.k == 'G' then ans.ou = ARGV[21] end
local json = cjson.encode(ans)
if ans.k ~= 'G' then return {'A', json} end
local exp = tonumber(ARGV[9])
add_hold(id, run, math.ceil(tonumber(ans.gt) * rate), exp)
redis.call('HSET', KEYS[6], 'run', run, 'h', holder, 'g', '1', 'f', '', 'st', 'l', 'exp', ARGV[9],
  'rate', ARGV[16], 'ch0', ARGV[17], 'ch', ARGV[17], 'fo', ARGV[21], 'gt', ans.gt, 'd0', '0',
  'sp', '0', 'cf', '0', 'dr', '0', 'ans', json, 'cr', ARGV[1])
redis.call('PEXPIREAT', KEYS[6], exp + tonumber(ARGV[22]))
redis.call('ZADD', KEYS[5], exp, id)
redis.call('ZADD', KEYS[7], exp, id)
keep_lease(KEYS[6], now)
return {'A', json}
`;

/**
 * RENEW. KEYS as GRANT (6 the lease record, 7 its run's set). ARGV as the sizing block, with
 * 20 generation, 21 spent tokens, 22 uncounted tokens, 23 tombstone ms; 16 the rate of the
 * re-declared chain (0 when none), 17 the re-declared chain ('' when none).
 * Returns {'REBUILD'} | {'N'} (unknown, foreign, expired, surrendered) | {'C'} (generation
 * conflict) | {'A', answer JSON} (a successor's answer, new or stored).
 */
const RENEW_BODY = `
local now = tonumber(ARGV[1])
local k, id, holder = KEYS[6], ARGV[18], ARGV[19]
local f = redis.call('HMGET', k, 'run', 'h', 'g', 'f', 'st', 'ans', 'rate', 'sp', 'dr', 'ch', 'fo')
if not f[1] or f[2] ~= holder or run_key(f[1]) ~= KEYS[7] then return {'N'} end
sweep(now)
local st = redis.call('HGET', k, 'st')
if st == 'x' or st == 's' then return {'N'} end
local gen, cur = tonumber(ARGV[20]), tonumber(f[3])
if f[4] ~= '' and tonumber(f[4]) == gen and cur == gen + 1 then return {'A', f[6]} end
if gen ~= cur or st ~= 'l' then return {'C'} end
if redis.call('HEXISTS', KEYS[1], 'p') == 0 then return {'REBUILD'} end

local run = f[1]
local rate = tonumber(f[7])
local extra = tonumber(ARGV[16])
if extra > rate then rate = extra end
-- What this generation reported: spend beyond what confirms accounted, and fail-open tokens.
local sp = num(f[8]) + tonumber(ARGV[21])
local dr = num(f[9])
local excess = math.max(0, sp - dr)
dr = dr + excess
fold('lsf:' .. id .. ':' .. cur, run, rate, excess + tonumber(ARGV[22]), tonumber(ARGV[13]))
-- The old claim returns before the successor is sized.
release(KEYS[2], KEYS[3], KEYS[4], id)
local holders = redis.call('ZCOUNT', KEYS[7], now, '+inf')
holders = math.max(1, math.min(holders, tonumber(ARGV[6])))
local ans = verdict(run, rate, holders, id, cur + 1)
if ans.k == 'G' then ans.ou = f[11] end
local json = cjson.encode(ans)
local exp = tonumber(ARGV[9])
redis.call('HSET', k, 'g', tostring(cur + 1), 'f', tostring(cur), 'ans', json, 'sp', fmt(sp), 'dr', fmt(dr),
  'rate', tostring(rate), 'ch', union_chain(f[10], ARGV[17]))
if ans.k == 'G' then
  add_hold(id, run, math.ceil(tonumber(ans.gt) * rate), exp)
  redis.call('HSET', k, 'exp', ARGV[9], 'gt', ans.gt, 'd0', fmt(dr))
  redis.call('ZADD', KEYS[5], exp, id)
  redis.call('ZADD', KEYS[7], exp, id)
  redis.call('PEXPIREAT', k, exp + tonumber(ARGV[23]))
else
  end_lease(id, 'e')
  redis.call('PEXPIRE', k, ARGV[23])
end
keep_lease(k, now)
return {'A', json}
`;

/**
 * SURRENDER. KEYS: 1 built, 2 holds, 3 holdRecords, 4 heldSums, 5 lease index, 6 lease record.
 * ARGV: 1 now, 2 holder, 3 generation, 4 spent tokens, 5 fold expiry ms, 6 tombstone ms, 7 lease id.
 * Returns {'N'} | {'C'} | {'R', released tokens}.
 */
const SURRENDER_BODY = `
local now = tonumber(ARGV[1])
local k, id = KEYS[6], ARGV[7]
local f = redis.call('HMGET', k, 'run', 'h', 'g', 'f', 'rate', 'sp', 'dr')
if not f[1] or f[2] ~= ARGV[2] then return {'N'} end
sweep(now)
local st = redis.call('HGET', k, 'st')
local gen, cur = tonumber(ARGV[3]), tonumber(f[3])
-- The current generation, or the one whose renewal ended the lease (the SDK then surrenders it).
if gen ~= cur and not (st == 'e' and f[4] ~= '' and tonumber(f[4]) == gen) then return {'C'} end
if st ~= 'l' then return {'R', 0} end
local run, rate = f[1], tonumber(f[5])
local sp = num(f[6]) + tonumber(ARGV[4])
local dr = num(f[7])
local excess = math.max(0, sp - dr)
fold('lsf:' .. id .. ':s', run, rate, excess, tonumber(ARGV[5]))
local released = math.floor(claim_of(id) / rate)
end_lease(id, 's')
redis.call('HSET', k, 'sp', fmt(sp), 'dr', fmt(dr + excess))
redis.call('PEXPIRE', k, ARGV[6])
return {'R', released}
`;

/**
 * CONFIRM (lease-funded). KEYS: 1 built, 2 holds, 3 holdRecords, 4 heldSums, 5 lease index,
 * 6 lease record, 7 confirmed, 8 confirmedExp, 9 provisional, 10 provisionalExp, 11 ingestedCalls,
 * 12-14 usage d/w/m. ARGV: 1 now, 2 lease id, 3 call id, 4 actual cost (nanos), 5 tokens of the
 * call, 6-8 window keys d/w/m, 9-11 window expiries, 12 run ttl, 13 confirmed ttl, 14 provisional ttl.
 * Returns 'settled' | 'duplicate' | 'not_found'.
 */
const CONFIRM_BODY = `
local now = tonumber(ARGV[1])
local id, callId, amount, tokens = ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
for _, pair in ipairs({{8, 7}, {10, 9}}) do
  local expired = redis.call('ZRANGEBYSCORE', KEYS[pair[1]], '-inf', now, 'LIMIT', 0, 256)
  for _, m in ipairs(expired) do
    redis.call('ZREM', KEYS[pair[1]], m)
    redis.call('HDEL', KEYS[pair[2]], m)
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[11], '-inf', now)
if redis.call('HEXISTS', KEYS[7], callId) == 1 then return 'duplicate' end
local f = redis.call('HMGET', KEYS[6], 'run', 'rate', 'cf', 'dr')
if not f[1] then return 'not_found' end
sweep(now)
local run, rate = f[1], tonumber(f[2])
redis.call('HSET', KEYS[7], callId, id)
redis.call('ZADD', KEYS[8], now + tonumber(ARGV[13]), callId)
redis.call('PEXPIRE', KEYS[7], ARGV[13])
redis.call('PEXPIRE', KEYS[8], ARGV[13])
-- The claim pays for the tokens no confirm or report accounted yet; the spend itself moves the
-- counters (provisionally, until the call's metadata event replaces it).
local cf = num(f[3]) + tokens
local dr = num(f[4])
local newly = math.max(0, cf - dr)
if redis.call('HGET', KEYS[6], 'st') == 'l' then draw_claim(id, run, math.ceil(newly * rate)) end
redis.call('HSET', KEYS[6], 'cf', fmt(cf), 'dr', fmt(dr + newly))
if amount > 0 and redis.call('HEXISTS', KEYS[1], 'p') == 1 and not redis.call('ZSCORE', KEYS[11], callId) then
  local text = fmt(amount)
  local targets = {}
  for i = 12, 14 do
    redis.call('INCRBY', KEYS[i], text)
    redis.call('PEXPIREAT', KEYS[i], ARGV[i - 3])
    targets[#targets + 1] = KEYS[i]
  end
  local rk = prefix .. 'run:' .. run
  redis.call('INCRBY', rk, text)
  redis.call('PEXPIRE', rk, ARGV[12])
  targets[#targets + 1] = rk
  redis.call('HSET', KEYS[9], callId, cjson.encode({a = text, k = targets}))
  redis.call('ZADD', KEYS[10], now + tonumber(ARGV[14]), callId)
  redis.call('PEXPIRE', KEYS[9], ARGV[14])
  redis.call('PEXPIRE', KEYS[10], ARGV[14])
end
return 'settled'
`;

function script(name: string, body: string): LuaScript {
  return luaScript(name, LEASE_COMMON + body);
}

export const GRANT_LEASE_SCRIPT = script("lease-grant", GRANT_BODY);
export const RENEW_LEASE_SCRIPT = script("lease-renew", RENEW_BODY);
export const SURRENDER_LEASE_SCRIPT = script("lease-surrender", SURRENDER_BODY);
export const CONFIRM_LEASE_SCRIPT = script("lease-confirm", CONFIRM_BODY);
