import { pictureOf } from '../charts/picture.ts';
import { marksSvg } from './marks.ts';

/** What a figure leaves out: the page's controls and its hidden explanations. */
const SKIP = 'button, input, select, details, .playback, .overlay-switch, .tip, .future, [data-export-skip]';

export const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
const n = (v: number) => Math.round(v * 100) / 100;

/** Where an element stands in the figure's coordinates. */
type Place = (r: DOMRect) => { x: number; y: number; w: number; h: number };

const visible = (el: Element, style: CSSStyleDeclaration) => style.visibility !== 'hidden' && style.display !== 'none' && el.getClientRects().length > 0;
const transparent = (color: string) => color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color);

/** The product of the element's and its ancestors' opacity, up to the figure's root. */
function opacityOf(el: Element, root: Element): number {
  let o = 1;
  for (let a: Element | null = el; a && a !== root.parentElement; a = a.parentElement) o *= Number(getComputedStyle(a).opacity);
  return o;
}

/** An element's background and borders as rectangles (the cards' panels, the headings' coloured rules). */
function boxSvg(el: Element, style: CSSStyleDeclaration, place: Place, opacity: number): string {
  const { x, y, w, h } = place(el.getBoundingClientRect());
  const alpha = opacity < 1 ? ` opacity="${n(opacity)}"` : '';
  const out: string[] = [];
  if (!transparent(style.backgroundColor))
    out.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${parseFloat(style.borderTopLeftRadius) || 0}" fill="${style.backgroundColor}"${alpha}/>`);
  const sides = [
    ['Top', x, y, w, 'width'],
    ['Bottom', x, y + h, w, 'width'],
    ['Left', x, y, h, 'height'],
    ['Right', x + w, y, h, 'height'],
  ] as const;
  for (const [side, sx, sy, len, along] of sides) {
    const width = parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`));
    const color = style.getPropertyValue(`border-${side.toLowerCase()}-color`);
    if (!(width > 0) || style.getPropertyValue(`border-${side.toLowerCase()}-style`) === 'none' || transparent(color)) continue;
    const rx = side === 'Right' ? sx - width : sx;
    const ry = side === 'Bottom' ? sy - width : sy;
    const [rw, rh] = along === 'width' ? [len, width] : [width, len];
    out.push(`<rect x="${n(rx)}" y="${n(ry)}" width="${n(rw)}" height="${n(rh)}" fill="${color}"${alpha}/>`);
  }
  return out.join('');
}

let measuring: CanvasRenderingContext2D | null = null;
/** A canvas context to measure text with (made on first use). */
const measure = () => (measuring ??= document.createElement('canvas').getContext('2d')!);

/** The distance from a line box's top to its baseline, for the font the text is set in. */
function ascentOf(font: string): number {
  measure().font = font;
  return measure().measureText('Hg').fontBoundingBoxAscent;
}

/** The nearest ancestor that clips its overflow (a card's label cut by an ellipsis), as a right edge. */
function clipRight(el: Element): number {
  for (let a: Element | null = el; a; a = a.parentElement) {
    if (getComputedStyle(a).overflowX !== 'visible') return a.getBoundingClientRect().right;
  }
  return Infinity;
}

/** About how wide an ellipsis is at the page's small sizes. */
const ELLIPSIS_PX = 9;

/** A word's parts as the page lays them out: whole, or split after its hyphens when it breaks across lines. */
function wordParts(range: Range, node: Text, at: number, word: string): { at: number; text: string }[] {
  range.setStart(node, at);
  range.setEnd(node, at + word.length);
  if (range.getClientRects().length <= 1) return [{ at, text: word }];
  let from = at;
  return word.split(/(?<=-)/).map((text) => ({ at: (from += text.length) - text.length, text }));
}

/** What of a word part fits before `right` (the edge of the box that clips it), with an ellipsis if cut. */
function fitted(range: Range, r: DOMRect, right: number, at: number, text: string): { text: string; cut: boolean } {
  if (r.right <= right + 0.5) return { text, cut: false };
  let k = text.length;
  do range.setEnd(range.startContainer, at + --k);
  while (k > 0 && range.getBoundingClientRect().right > right - ELLIPSIS_PX);
  return { text: `${text.slice(0, k)}…`, cut: true };
}

/** A text node as one SVG text per line it wraps onto, each starting where its first word stands. */
function textSvg(node: Text, style: CSSStyleDeclaration, place: Place, opacity: number): string {
  const range = document.createRange();
  const lines: { left: number; top: number; bottom: number; text: string }[] = [];
  const right = clipRight(node.parentElement!);
  words: for (const m of node.data.matchAll(/\S+/g)) {
    for (const [j, part] of wordParts(range, node, m.index, m[0]).entries()) {
      range.setStart(node, part.at);
      range.setEnd(node, part.at + part.text.length);
      const r = range.getBoundingClientRect();
      if (r.width === 0) continue;
      // cut by its box (a card's label): keep what fits before an ellipsis, as the page shows it
      const { text, cut } = fitted(range, r, right, part.at, part.text);
      const line = lines.at(-1);
      if (line && Math.abs(line.top - r.top) < 2) line.text += j === 0 ? ` ${text}` : text;
      else lines.push({ left: r.left, top: r.top, bottom: r.bottom, text });
      if (cut) break words;
    }
  }
  const font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const ascent = ascentOf(font);
  const attrs = `font-family="${escapeXml(style.fontFamily)}" font-size="${style.fontSize}" font-weight="${style.fontWeight}"${style.fontStyle !== 'normal' ? ` font-style="${style.fontStyle}"` : ''} fill="${style.color}"${opacity < 1 ? ` opacity="${n(opacity)}"` : ''}`;
  return lines
    .map((l) => {
      const { x, y } = place(new DOMRect(l.left, l.top, 0, l.bottom - l.top));
      return `<text x="${n(x)}" y="${n(y + ascent)}" ${attrs} xml:space="preserve">${escapeXml(l.text)}</text>`;
    })
    .join('');
}

/** Presentation the page gives its SVG by class; set on each element so the figure stands alone. */
const SVG_PROPS = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity', 'opacity', 'display', 'font-size', 'font-weight', 'font-family'];

/** One of the page's SVGs (axes, the plane) with its styles written out, placed where it stands. */
function inlineSvg(svg: SVGSVGElement, place: Place): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [...svg.querySelectorAll('*')];
  const to = [...copy.querySelectorAll('*')];
  from.forEach((el, i) => {
    const style = getComputedStyle(el);
    const decl = SVG_PROPS.map((p) => `${p}:${style.getPropertyValue(p)}`).join(';');
    to[i].setAttribute('style', decl);
    to[i].removeAttribute('class');
  });
  const { x, y, w, h } = place(svg.getBoundingClientRect());
  return `<svg x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" overflow="visible">${copy.innerHTML}</svg>`;
}

/** A chart canvas's marks redrawn as paths, clipped to the canvas's box. */
function canvasSvg(canvas: HTMLCanvasElement, place: Place): string {
  const figure = canvas.closest('figure');
  const picture = figure && pictureOf(figure);
  if (!picture) return '';
  const { x, y, w, h } = place(canvas.getBoundingClientRect());
  return `<svg x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" viewBox="0 0 ${n(w)} ${n(h)}">${marksSvg(picture)}</svg>`;
}

/** A chart's name in the figure: what the page names it by. */
const chartName = (figure: Element) => figure.getAttribute('aria-label') ?? figure.querySelector('figcaption')?.textContent ?? 'chart';

/**
 * The elements and text under `root` in document order, each as SVG; each chart (a figure) as a group of
 * its own named for it, so an editor can take one chart out. Opacity counts up to `top`, the figure's root.
 */
function contentSvg(root: HTMLElement, place: Place, top: HTMLElement = root): string {
  const parts: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => {
      const el = node instanceof Element ? node : node.parentElement!;
      if (el.closest(SKIP)) return NodeFilter.FILTER_REJECT;
      // a chart inside is written out whole, as its group, and so is an SVG; their children are not walked again
      const chart = node.parentElement?.closest('figure');
      if (chart && chart !== root && root.contains(chart)) return NodeFilter.FILTER_REJECT;
      return el.parentElement?.closest('svg') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
    },
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node instanceof Element ? node : node.parentElement!;
    const style = getComputedStyle(el);
    if (!visible(el, style)) continue;
    const opacity = opacityOf(el, top);
    if (node instanceof Text) {
      if (node.data.trim()) parts.push(textSvg(node, style, place, opacity));
    } else if (node instanceof SVGSVGElement) parts.push(inlineSvg(node, place));
    else if (node instanceof HTMLCanvasElement) parts.push(canvasSvg(node, place));
    else if (node instanceof HTMLElement && node.tagName === 'FIGURE') {
      parts.push(`<g data-chart="${escapeXml(chartName(node))}">${boxSvg(el, style, place, opacity)}${contentSvg(node, place, top)}</g>`);
    } else parts.push(boxSvg(el, style, place, opacity));
  }
  return parts.join('');
}

const SETTINGS_FONT = { size: 12, line: 16, family: 'system-ui, sans-serif' };

/** The settings line, wrapped at ' · ' to the figure's width. */
function wrapSettings(settings: string, width: number): string[] {
  const m = measure();
  m.font = `${SETTINGS_FONT.size}px ${SETTINGS_FONT.family}`;
  const lines: string[] = [];
  for (const part of settings.split(' · ')) {
    const last = lines.at(-1);
    if (last !== undefined && m.measureText(`${last} · ${part}`).width <= width) lines[lines.length - 1] = `${last} · ${part}`;
    else lines.push(part);
  }
  return lines;
}

/**
 * A part of the page as one standalone vector figure, laid out as it stands: boxes, text, the page's
 * SVGs, and each chart's canvas marks redrawn as paths (no bitmaps), under a line of the settings.
 */
export function figureSvg(root: HTMLElement, settings?: string): { svg: string; width: number; height: number } {
  const origin = root.getBoundingClientRect();
  const width = Math.ceil(origin.width);
  const lines = settings ? wrapSettings(settings, width - 16) : [];
  const top = lines.length ? lines.length * SETTINGS_FONT.line + 10 : 0;
  const height = Math.ceil(origin.height) + top;
  const place: Place = (r) => ({ x: r.left - origin.left, y: r.top - origin.top + top, w: r.width, h: r.height });
  const head = lines
    .map((l, i) => `<text x="8" y="${(i + 1) * SETTINGS_FONT.line}" font-family="${SETTINGS_FONT.family}" font-size="${SETTINGS_FONT.size}px" fill="#5b6573" data-settings="">${escapeXml(l)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#fff"/>${head}${contentSvg(root, place)}</svg>`;
  return { svg, width, height };
}
