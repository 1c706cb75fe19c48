(el) => {
  const rect = e => e.getBoundingClientRect();
  const lines = e => {  // the lines an element's text takes: its text nodes' boxes, a new line where one starts below the last
    const boxes = [], walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const r = document.createRange(); r.selectNodeContents(n);
      boxes.push(...[...r.getClientRects()].filter(q => q.width > 0));
    }
    boxes.sort((a, b) => a.top - b.top);
    let n = 0, bottom = -Infinity;
    for (const q of boxes) { if (q.top >= bottom - 1) n += 1; bottom = Math.max(bottom, q.bottom); }
    return n;
  };
  const out = {rows: [], imgs: [], split: [], styles: []};
  const names = el.querySelectorAll('.ntrain-rung-name');
  for (let k = 1; k <= 5; k++) {
    const btn = el.querySelector(`.ntrain-run-${k}`), num = el.querySelector(`.ntrain-numbers[data-rung="${k}"]`);
    const badge = el.querySelector(`.ntrain-badge[data-rung="${k}"]`).parentElement, name = names[k - 1];
    const time = el.querySelector(`.ntrain-time[data-rung="${k}"]`), cells = [btn, badge, name, time, num];
    const top = Math.min(...cells.map(e => rect(e).top)), bottom = Math.max(...cells.map(e => rect(e).bottom));
    out.rows.push({rung: k, x: rect(num).left, right: rect(num).right, height: bottom - top, button: rect(btn).height,
                   lines: {badge: lines(badge), name: lines(name), time: lines(time), summary: lines(num)}});
  }
  out.right = rect(el).right;  // what the panel shows ends there: a summary or the status line cut by it lost its ellipsis
  out.status = rect(el.querySelector('.ntrain-status')).right;
  for (const img of el.querySelectorAll('img')) out.imgs.push({w: img.naturalWidth, complete: img.complete, shown: img.offsetParent !== null});
  const opened = [...el.querySelectorAll('details.ntrain-details:not([open])')];
  opened.forEach(d => d.open = true);
  for (const pre of el.querySelectorAll('.ntrain-diagnosis')) {
    const cs = getComputedStyle(pre);
    out.styles.push([cs.wordBreak, cs.overflowWrap, cs.whiteSpace]);
    const walk = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.data.matchAll(/\S+/g)) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const boxes = [...r.getClientRects()].filter(q => q.width > 0);
        if (boxes.some(q => q.top >= boxes[0].bottom - 1)) out.split.push(m[0]);  // a part of it on a line below the first
      }
    }
  }
  out.diagnoses = el.querySelectorAll('.ntrain-diagnosis').length;
  opened.forEach(d => d.open = false);
  return out;
}
