// Field access: reads and writes of instance fields from outside methods.
class Point {
  constructor(x, y) {
    this.x = x;
    this.y = y;
  }
}

function run(n) {
  const p = new Point(1, 2);
  const q = new Point(3, 4);
  let sum = 0;
  for (let i = 0; i < n; i = i + 1) {
    p.x = q.y + i % 7;
    q.x = p.x + p.y;
    p.y = q.x % 13;
    q.y = p.y + q.x % 5;
    sum = sum + p.x + q.y;
  }
  print(sum);
  print(p.x + p.y + q.x + q.y);
}

run(1500000);
