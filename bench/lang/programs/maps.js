// Maps: counting with string keys (a read with a default), integer keys
// tested with has(), entries removed, and a for-of over the keys left.
function run(n) {
  const names = ["fire", "ice", "storm", "earth", "light", "shadow", "poison", "arcane"];
  const counts = new Map();
  const buckets = new Map();
  for (let i = 0; i < n; i = i + 1) {
    const name = names[i % 8];
    counts.set(name, (counts.get(name) ?? 0) + 1);
    const k = i % 1000;
    if (buckets.has(k)) buckets.set(k, buckets.get(k) + 1);
    else buckets.set(k, 1);
    if (i % 7 === 0) buckets.delete(k);
  }
  let total = 0;
  for (const k of buckets.keys()) total = total + buckets.get(k);
  print(total);
  print(counts.get("fire") + counts.get("arcane"));
  print(buckets.size);
}

run(300000);
