-- The book's binary_trees benchmark: allocation, recursion, field reads, nil checks.
local Tree = {}
Tree.__index = Tree

function Tree.new(item, depth)
  local self = setmetatable({}, Tree)
  self.item = item
  self.depth = depth
  if depth > 0 then
    local item2 = item + item
    depth = depth - 1
    self.left = Tree.new(item2 - 1, depth)
    self.right = Tree.new(item2, depth)
  else
    self.left = nil
    self.right = nil
  end
  return self
end

function Tree:check()
  if self.left == nil then
    return self.item
  end
  return self.item + self.left:check() - self.right:check()
end

local function run(minDepth, maxDepth)
  local stretchDepth = maxDepth + 1
  print(Tree.new(0, stretchDepth):check())

  local longLivedTree = Tree.new(0, maxDepth)

  local iterations = 1
  for d = 0, maxDepth - 1 do
    iterations = iterations * 2
  end

  local depth = minDepth
  while depth < stretchDepth do
    local check = 0
    for i = 1, iterations do
      check = check + Tree.new(i, depth):check() + Tree.new(-i, depth):check()
    end
    print(iterations * 2)
    print(depth)
    print(check)
    iterations = iterations // 4
    depth = depth + 2
  end

  print(longLivedTree:check())
end

run(4, 12)
