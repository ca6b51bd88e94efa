-- Maps: counting with string keys (a read with a default), integer keys
-- tested for presence, entries removed, and a loop over the keys left.
local function run(n)
  local names = {"fire", "ice", "storm", "earth", "light", "shadow", "poison", "arcane"}
  local counts = {}
  local buckets = {}
  for i = 0, n - 1 do
    local name = names[i % 8 + 1]
    counts[name] = (counts[name] or 0) + 1
    local k = i % 1000
    if buckets[k] ~= nil then buckets[k] = buckets[k] + 1
    else buckets[k] = 1 end
    if i % 7 == 0 then buckets[k] = nil end
  end
  local total = 0
  local size = 0
  for _, v in pairs(buckets) do
    total = total + v
    size = size + 1
  end
  print(total)
  print(counts["fire"] + counts["arcane"])
  print(size)
end

run(300000)
