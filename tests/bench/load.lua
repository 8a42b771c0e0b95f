-- wrk script for tests/bench/test_bench.py.
--
--   wrk ... -s load.lua URL -- events POOL SEQUENCE RUN THREADS
--       Each request records the next event of one of this thread's games (POOL: lines of
--       "game_id edit_token next_index"; SEQUENCE: one event body per line, without its id).
--       A thread goes round all its games, and skips a game until the answer to its
--       previous event is in (the answer names the event id): every request is a valid
--       event, accepted with 201.
--   wrk ... -s load.lua URL -- paths PATHS [METHOD BODY]
--       Each request takes the next path of PATHS (one per line), GET unless METHOD is
--       given (then with BODY as JSON).
--   wrk ... -s load.lua URL -- phones PHONES
--       Phones that each follow a page with the cookies their first visit gave them (PHONES:
--       lines of "path<TAB>cookie header"): each request is the next phone's GET of its page,
--       with its Cookie header beside the -H headers, as a phone at the table asks.
--
-- done() prints one line "BENCH {json}" with the counts and latency percentiles (in us).

local threads = {}

function setup(thread)
  thread:set("thread_index", #threads)
  table.insert(threads, thread)
end

local function lines(path)
  local out = {}
  for line in io.lines(path) do
    if line ~= "" then
      table.insert(out, line)
    end
  end
  return out
end

local mode
local pool = {}
local sequence = {}
local paths = {}
local phones = {} -- each phone's whole request, made once
local cursor = 0
local counter = 0
local run = "00000000"
local waiting = {} -- event id -> the game whose answer is awaited
local method = "GET"
local body = nil
local json_headers = { ["Content-Type"] = "application/json" }
exhausted = 0
refusals = ""
refused = 0

function init(args)
  mode = args[1]
  if mode == "events" then
    sequence = lines(args[2])
    run = args[4]
    local nthreads = tonumber(args[5])
    local i = 0
    for line in io.lines(args[3]) do
      if line ~= "" then
        if i % nthreads == thread_index then
          local id, token, next_index = line:match("^(%S+) (%S+) (%d+)$")
          table.insert(pool, { id = id, token = token, next = tonumber(next_index) + 1 })
        end
        i = i + 1
      end
    end
  elseif mode == "phones" then
    for _, line in ipairs(lines(args[2])) do
      local path, cookie = line:match("^([^\t]+)\t(.*)$")
      local headers = { ["Cookie"] = cookie }
      for name, value in pairs(wrk.headers) do
        headers[name] = value
      end
      table.insert(phones, wrk.format("GET", path, headers))
    end
  else
    paths = lines(args[2])
    if args[3] then
      method = args[3]
      body = args[4]
    end
  end
end

local function next_event()
  for _ = 1, #pool do
    cursor = cursor % #pool + 1
    local game = pool[cursor]
    if game.next <= #sequence and not game.busy then
      local template = sequence[game.next]
      game.next = game.next + 1
      counter = counter + 1
      local id = string.format("%s-%04x-4000-8000-%012x", run, thread_index, counter)
      game.busy = true
      waiting[id] = game
      return wrk.format(
        "POST",
        "/api/v1/games/" .. game.id .. "/events",
        { ["Content-Type"] = "application/json", ["X-Edit-Token"] = game.token },
        '{"id": "' .. id .. '", ' .. template:sub(2)
      )
    end
  end
  -- Every game of this thread is over or waiting: say so (the figures would mix in refusals).
  exhausted = exhausted + 1
  local game = pool[1]
  return wrk.format("POST", "/api/v1/games/" .. game.id .. "/events", json_headers, "{}")
end

function request()
  if mode == "events" then
    return next_event()
  end
  if mode == "phones" then
    cursor = cursor % #phones + 1
    return phones[cursor]
  end
  cursor = cursor % #paths + 1
  if body then
    return wrk.format(method, paths[cursor], json_headers, body)
  end
  return wrk.format(method, paths[cursor])
end

-- Answers that are not 2xx: the first few are kept, to be printed.
function response(status, headers, body)
  if mode == "events" and body then
    local id = body:match('"id":%s*"(%x+%-%x+%-4000%-8000%-%x+)"')
    local game = id and waiting[id]
    if game then
      game.busy = false
      waiting[id] = nil
    end
  end
  if status >= 300 then
    refused = refused + 1
    if refused <= 3 then
      refusals = refusals .. status .. " " .. (body or ""):sub(1, 200):gsub("[\r\n\t]", " ") .. "\t"
    end
  end
end

function done(summary, latency, requests)
  local out_of_games = 0
  for _, thread in ipairs(threads) do
    out_of_games = out_of_games + (thread:get("exhausted") or 0)
    local seen = thread:get("refusals") or ""
    if seen ~= "" then
      io.write("REFUSED " .. seen .. "\n")
    end
  end
  local errors = summary.errors
  io.write(
    string.format(
      'BENCH {"requests": %d, "duration_us": %d, "bytes": %d, "status_errors": %d, '
        .. '"socket_errors": %d, "timeouts": %d, "p50": %d, "p95": %d, "p99": %d, '
        .. '"max": %d, "mean": %.1f, "exhausted": %d}\n',
      summary.requests,
      summary.duration,
      summary.bytes,
      errors.status,
      errors.connect + errors.read + errors.write,
      errors.timeout,
      latency:percentile(50),
      latency:percentile(95),
      latency:percentile(99),
      latency.max,
      latency.mean,
      out_of_games
    )
  )
end
