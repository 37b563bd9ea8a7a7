import {
  ReactFlow,
  useStore,
  type Edge,
  type Node,
  type NodeMouseHandler,
  type NodeTypes,
  type ReactFlowState,
} from '@xyflow/react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type PointerEvent } from 'react';

/**
 * A graph drawn at a scale a person can read, inside a frame that scrolls (wheel, scroll bars, or
 * dragging the background), with small controls: "Fit" (the whole graph in the frame), "100 %"
 * (the natural size), zoom out and in. The text of the graphs' nodes is 11–12 CSS px at scale 1, so
 * the default is the fitted scale when the whole graph fits at READABLE_ZOOM or more, else 100 % with
 * scrolling: a 40-node workflow is not shrunk until its labels are a few pixels high.
 *
 * The scale is React Flow's viewport zoom (controlled here, the library's own panning and zooming
 * turned off); the frame's content is sized to the graph's measured bounds times that zoom, so the
 * browser scrolls it like any other content.
 */
export const READABLE_ZOOM = 1;
const MAX_FIT = 1.5;
const MIN_ZOOM = 0.02;
const MAX_ZOOM = 3;
const STEP = 1.25;
/** Room around the graph (the search tree's hover tip rises 30 px above its node). */
const PAD = 32;

type Mode = 'auto' | 'fit' | number;
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const clampZoom = (z: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));

/** The scale a mode means for a graph of `box` in a frame of `frameW` × `frameH` CSS px. */
export function zoomFor(mode: Mode, box: Box, frameW: number, frameH: number): number {
  const fit = clampZoom(Math.min(MAX_FIT, (frameW - 2 * PAD) / box.w, (frameH - 2 * PAD) / box.h));
  if (mode === 'fit') return fit;
  if (mode === 'auto') return fit >= READABLE_ZOOM ? fit : READABLE_ZOOM;
  return clampZoom(mode);
}

/** The measured nodes' bounds as "x y w h", or '' until every node has been measured. */
function boundsKey(s: ReactFlowState): string {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const n of s.nodeLookup.values()) {
    const { width, height } = n.measured;
    if (!width || !height) return '';
    const p = n.internals.positionAbsolute;
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x + width);
    y1 = Math.max(y1, p.y + height);
  }
  return x0 === Infinity ? '' : `${x0} ${y0} ${x1 - x0} ${y1 - y0}`;
}

function ReportBounds({ onBounds }: { onBounds: (key: string) => void }) {
  const key = useStore(boundsKey);
  useLayoutEffect(() => onBounds(key), [key, onBounds]);
  return null;
}

const ignoreViewport = () => undefined;

export function GraphFrame<N extends Node, E extends Edge>({
  nodes,
  edges,
  nodeTypes,
  className,
  testId,
  maxHeight,
  onNodeClick,
}: {
  nodes: N[];
  edges: E[];
  nodeTypes: NodeTypes;
  className: string;
  testId: string;
  /** The frame's height at most, in CSS px (and never more than 85 % of the window). */
  maxHeight: number;
  onNodeClick?: NodeMouseHandler<N>;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const [mode, setMode] = useState<Mode>('auto');
  const [boundsText, setBoundsText] = useState('');
  const [size, setSize] = useState({ w: 0, h: maxHeight });
  // Where the view was (as a fraction of the content) before a change of scale; null: centre it.
  const anchor = useRef<{ fx: number; fy: number } | null>({ fx: 0.5, fy: 0 });
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const measure = () =>
      setSize({ w: box.clientWidth, h: Math.min(maxHeight, Math.round(window.innerHeight * 0.85)) });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(box);
    window.addEventListener('resize', measure);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [maxHeight]);

  const parts = boundsText ? boundsText.split(' ').map(Number) : null;
  const bounds: Box | null = parts ? { x: parts[0]!, y: parts[1]!, w: parts[2]!, h: parts[3]! } : null;
  const zoom = bounds && size.w > 0 ? zoomFor(mode, bounds, size.w, size.h) : 1;

  const keep = () => {
    const f = frameRef.current;
    if (f && f.scrollWidth > 0)
      anchor.current = {
        fx: (f.scrollLeft + f.clientWidth / 2) / f.scrollWidth,
        fy: (f.scrollTop + f.clientHeight / 2) / f.scrollHeight,
      };
  };
  const choose = (m: Mode) => {
    keep();
    setMode(m);
  };

  useLayoutEffect(() => {
    const f = frameRef.current;
    const a = anchor.current;
    if (!f || !a || !bounds) return;
    f.scrollLeft = a.fx * f.scrollWidth - f.clientWidth / 2;
    f.scrollTop = a.fy === 0 ? 0 : a.fy * f.scrollHeight - f.clientHeight / 2;
    anchor.current = null;
  }, [zoom, boundsText]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const f = frameRef.current;
    if (!f || e.button !== 0 || (e.target as Element).closest('.react-flow__node')) return;
    const r = f.getBoundingClientRect();
    // A press on a scroll bar (outside the client area) is the browser's own scrolling.
    if (e.clientX - r.left - f.clientLeft >= f.clientWidth || e.clientY - r.top - f.clientTop >= f.clientHeight) return;
    drag.current = { x: e.clientX, y: e.clientY, left: f.scrollLeft, top: f.scrollTop };
    f.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const f = frameRef.current;
    const d = drag.current;
    if (!f || !d) return;
    f.scrollLeft = d.left - (e.clientX - d.x);
    f.scrollTop = d.top - (e.clientY - d.y);
  };
  const endDrag = () => void (drag.current = null);
  const onBounds = useCallback((key: string) => setBoundsText(key), []);

  const contentW = bounds ? Math.ceil(bounds.w * zoom + 2 * PAD) : size.w;
  const contentH = bounds ? Math.ceil(bounds.h * zoom + 2 * PAD) : size.h;
  return (
    <div className={`graph-box ${className}`} data-testid={testId} ref={boxRef}>
      <div className="zoom-bar">
        {bounds && (contentW > size.w || contentH > size.h) ? (
          <span className="muted small zoom-hint">scroll or drag the background to see the rest</span>
        ) : null}
        <button type="button" aria-pressed={mode === 'fit'} onClick={() => choose('fit')}>
          Fit
        </button>
        <button type="button" aria-pressed={mode === 1} onClick={() => choose(1)}>
          100 %
        </button>
        <button type="button" aria-label="Zoom out" onClick={() => choose(clampZoom(zoom / STEP))}>
          −
        </button>
        <button type="button" aria-label="Zoom in" onClick={() => choose(clampZoom(zoom * STEP))}>
          +
        </button>
        <span className="muted small" data-testid="graph-zoom">
          {Math.round(zoom * 100)} %
        </span>
      </div>
      <div
        className="graph-frame"
        data-testid="graph-frame"
        ref={frameRef}
        // Focusable, so the arrow and page keys scroll it too.
        tabIndex={0}
        aria-label="the graph (scrolls)"
        style={{ maxHeight: size.h }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <div
          className="graph-content"
          style={{ width: contentW, height: contentH, visibility: bounds ? 'visible' : 'hidden' }}
        >
          <ReactFlow
            nodes={nodes}
            edges={edges}
            nodeTypes={nodeTypes}
            viewport={bounds ? { x: PAD - bounds.x * zoom, y: PAD - bounds.y * zoom, zoom } : { x: 0, y: 0, zoom: 1 }}
            onViewportChange={ignoreViewport}
            minZoom={MIN_ZOOM}
            maxZoom={MAX_ZOOM}
            panOnDrag={false}
            panOnScroll={false}
            zoomOnScroll={false}
            zoomOnPinch={false}
            zoomOnDoubleClick={false}
            preventScrolling={false}
            autoPanOnNodeFocus={false}
            nodesConnectable={false}
            {...(onNodeClick ? { onNodeClick } : {})}
            proOptions={{ hideAttribution: true }}
          >
            <ReportBounds onBounds={onBounds} />
          </ReactFlow>
        </div>
      </div>
    </div>
  );
}
