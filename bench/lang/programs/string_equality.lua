-- The book's string_equality benchmark: comparing equal and unequal strings
-- built at run time (so equal contents need not be the same object).
local function run(n)
  local a1 = "abcdefghijklmnopqrstuvwxyz" .. "1"
  local a2 = "abcdefghijklmnopqrstuvwxyz" .. "2"
  local a3 = "abcdefghijklmnopqrstuvwxyz" .. "3"
  local b1 = "abcdefghijklmnopqrstu" .. "vwxyz1"
  local b2 = "abcdefghijklmnopqrstu" .. "vwxyz2"
  local count = 0
  for i = 0, n - 1 do
    if a1 == b1 then count = count + 1 end
    if a1 == a2 then count = count + 1 end
    if a2 == b2 then count = count + 1 end
    if a3 == "abcdefghijklmnopqrstuvwxyz3" then count = count + 1 end
    if a3 ~= a1 then count = count + 1 end
    if b1 == "short" then count = count + 1 end
    if a2 == a2 then count = count + 1 end
    if b2 ~= b1 then count = count + 1 end
  end
  print(count)
end

run(1000000)
