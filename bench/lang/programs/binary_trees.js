// The book's binary_trees benchmark: allocation, recursion, field reads, nil checks.
class Tree {
  constructor(item, depth) {
    this.item = item;
    this.depth = depth;
    if (depth > 0) {
      const item2 = item + item;
      depth = depth - 1;
      this.left = new Tree(item2 - 1, depth);
      this.right = new Tree(item2, depth);
    } else {
      this.left = null;
      this.right = null;
    }
  }

  check() {
    if (this.left === null) {
      return this.item;
    }
    return this.item + this.left.check() - this.right.check();
  }
}

function run(minDepth, maxDepth) {
  const stretchDepth = maxDepth + 1;
  print(new Tree(0, stretchDepth).check());

  const longLivedTree = new Tree(0, maxDepth);

  let iterations = 1;
  for (let d = 0; d < maxDepth; d = d + 1) {
    iterations = iterations * 2;
  }

  let depth = minDepth;
  while (depth < stretchDepth) {
    let check = 0;
    for (let i = 1; i <= iterations; i = i + 1) {
      check = check + new Tree(i, depth).check() + new Tree(-i, depth).check();
    }
    print(iterations * 2);
    print(depth);
    print(check);
    iterations = iterations / 4;
    depth = depth + 2;
  }

  print(longLivedTree.check());
}

run(4, 12);
