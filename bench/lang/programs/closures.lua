-- Closures: creating closures that capture locals, then calling them to
-- read and write the captured (closed-over) variables.
local function makeCounter(start)
  local n = start
  local function add(k)
    n = n + k
    return n
  end
  return add
end

local function run(iterations)
  local total = 0
  for i = 0, iterations - 1 do
    local counter = makeCounter(i % 10)
    counter(1)
    counter(2)
    total = total + counter(3)
  end
  print(total)
end

run(400000)
