-- The book's zoo benchmark: many small getter methods reading fields.
local Zoo = {}
Zoo.__index = Zoo

function Zoo.new()
  local self = setmetatable({}, Zoo)
  self.aardvark = 1
  self.baboon   = 1
  self.cat      = 1
  self.donkey   = 1
  self.elephant = 1
  self.fox      = 1
  return self
end

function Zoo:ant()    return self.aardvark end
function Zoo:banana() return self.baboon end
function Zoo:tuna()   return self.cat end
function Zoo:hay()    return self.donkey end
function Zoo:grass()  return self.elephant end
function Zoo:mouse()  return self.fox end

local function run(limit)
  local zoo = Zoo.new()
  local sum = 0
  while sum < limit do
    sum = sum + zoo:ant()
              + zoo:banana()
              + zoo:tuna()
              + zoo:hay()
              + zoo:grass()
              + zoo:mouse()
  end
  print(sum)
end

run(3000000)
