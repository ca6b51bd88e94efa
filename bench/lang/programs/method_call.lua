-- Wren's method_call: virtual dispatch, `this`, super calls, returning `this`.
local Toggle = {}
Toggle.__index = Toggle

function Toggle.init(self, startState)
  self.state = startState
end

function Toggle.new(startState)
  local self = setmetatable({}, Toggle)
  Toggle.init(self, startState)
  return self
end

function Toggle:value() return self.state end

function Toggle:activate()
  self.state = not self.state
  return self
end

local NthToggle = setmetatable({}, { __index = Toggle })
NthToggle.__index = NthToggle

function NthToggle.init(self, startState, maxCounter)
  Toggle.init(self, startState)
  self.countMax = maxCounter
  self.count = 0
end

function NthToggle.new(startState, maxCounter)
  local self = setmetatable({}, NthToggle)
  NthToggle.init(self, startState, maxCounter)
  return self
end

function NthToggle:activate()
  self.count = self.count + 1
  if self.count >= self.countMax then
    Toggle.activate(self)
    self.count = 0
  end
  return self
end

local function run(n)
  local trues = 0
  local val = true
  local toggle = Toggle.new(val)
  for i = 0, n - 1 do
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    val = toggle:activate():value()
    if val then trues = trues + 1 end
  end
  print(toggle:value())

  val = true
  local ntoggle = NthToggle.new(val, 3)
  for i = 0, n - 1 do
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    val = ntoggle:activate():value()
    if val then trues = trues + 1 end
  end
  print(ntoggle:value())
  print(trues)
end

run(200000)
