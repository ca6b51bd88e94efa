-- A tight arithmetic loop over locals: the dispatch loop's raw speed.
local function run(n)
  local a = 0
  local b = 1
  for i = 0, n - 1 do
    a = (a + b * 3 + i) % 1000003
    b = (b + a + i % 7) % 65521
  end
  print(a)
  print(b)
end

run(3000000)
