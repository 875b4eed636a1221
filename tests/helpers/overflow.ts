/**
 * What a page hides from its reader by its layout, measured in the browser: content clipped by a
 * box that hides its overflow, content spilling out of its box over its neighbours, and anything
 * reaching past the window's right edge without a scroll container of its own (the page or the
 * main area scrolling sideways does not count).
 */
import type { Page } from 'playwright-core';

/**
 * The measuring script, run in the page as plain JavaScript (tsx would wrap a TypeScript function's
 * inner functions in a helper the page does not have). Resolves with one line per element.
 */
const measure = `(() => {
  const found = [];
  const describe = (el) => {
    const label = el.getAttribute('aria-label') || el.getAttribute('data-testid') || el.id || '';
    const text = (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 40);
    const classes = [...el.classList].map((c) => '.' + c).join('');
    return '<' + el.tagName.toLowerCase() + classes + (label ? ' "' + label + '"' : '') + '> "' + text + '"';
  };
  const pageBoxes = new Set([document.documentElement, document.body, document.querySelector('main')]);
  const scrollsAcross = (el) => /auto|scroll/.test(getComputedStyle(el).overflowX);
  const inOwnScrollBox = (el) => {
    for (let box = el.parentElement; box && !pageBoxes.has(box); box = box.parentElement)
      if (scrollsAcross(box)) return true;
    return false;
  };
  const width = document.documentElement.clientWidth;
  const clips = [];
  const spills = [];
  const past = new Set();
  const pastLines = new Map();
  for (const el of document.querySelectorAll('body *')) {
    if (!el.checkVisibility({ visibilityProperty: true })) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1) continue; // visually hidden, for screen readers
    if (!(el instanceof HTMLElement)) continue; // chart drawings scale to their box
    // A typed path longer than its field scrolls inside the field, with the caret.
    if (el instanceof HTMLInputElement && /^(text|search|url)$/.test(el.type)) continue;
    const style = getComputedStyle(el);
    const ellipsisWithTooltip = style.textOverflow === 'ellipsis' && !!el.closest('[title]');
    if (/hidden|clip/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1 && !ellipsisWithTooltip) {
      clips.push(describe(el) + ' clips ' + (el.scrollWidth - el.clientWidth) + 'px across');
    } else if (/hidden|clip/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1) {
      clips.push(describe(el) + ' clips ' + (el.scrollHeight - el.clientHeight) + 'px down');
    } else if (
      style.overflowX === 'visible' &&
      style.display !== 'inline' &&
      !/^(table-cell|table-row|contents)$/.test(style.display) &&
      el.clientWidth > 0 &&
      el.scrollWidth > el.clientWidth + 1
    ) {
      // Not clipped, but out of its box: over its neighbour, or under it.
      spills.push([el, describe(el) + ' spills ' + (el.scrollWidth - el.clientWidth) + 'px out of its box']);
    }
    if (rect.right > width + 1 && !inOwnScrollBox(el)) {
      past.add(el);
      pastLines.set(el, describe(el) + ' reaches ' + Math.round(rect.right - width) + 'px past the window');
    }
  }
  // A spill is named at the innermost box it leaves; content past the window at its outermost.
  const spilling = spills.map(([el]) => el);
  for (const [el, line] of spills)
    if (!spilling.some((other) => other !== el && el.contains(other))) found.push(line);
  for (const [el, line] of pastLines) if (!past.has(el.parentElement)) found.push(line);
  found.push(...clips);
  return found;
})()`;

export function clippedContent(page: Page): Promise<string[]> {
  return page.evaluate(measure) as Promise<string[]>;
}
