-- Field access: reads and writes of instance fields from outside methods.
local Point = {}
Point.__index = Point

function Point.new(x, y)
  local self = setmetatable({}, Point)
  self.x = x
  self.y = y
  return self
end

local function run(n)
  local p = Point.new(1, 2)
  local q = Point.new(3, 4)
  local sum = 0
  for i = 0, n - 1 do
    p.x = q.y + i % 7
    q.x = p.x + p.y
    p.y = q.x % 13
    q.y = p.y + q.x % 5
    sum = sum + p.x + q.y
  end
  print(sum)
  print(p.x + p.y + q.x + q.y)
end

run(1500000)
