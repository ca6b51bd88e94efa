-- The book's instantiation benchmark: allocating instances and running init().
local Foo = {}
Foo.__index = Foo

function Foo.new(v)
  local self = setmetatable({}, Foo)
  self.v = v
  return self
end

local function run(n)
  local sum = 0
  for i = 0, n - 1 do
    Foo.new(1)
    Foo.new(2)
    Foo.new(3)
    Foo.new(4)
    sum = sum + Foo.new(i % 10).v
  end
  print(sum)
end

run(400000)
