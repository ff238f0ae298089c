// The script that starts index.html's scripts once its pre-rendered answer has been painted
// (issue #22). Deferred scripts run as soon as the document is parsed, in the same task, so
// Chromium drew its first frame only after the 374 KB glue had been evaluated and, in about one
// cold load in four on the development VM, after the live page had replaced the pre-render: the
// largest contentful paint came at ~900 ms instead of ~300. Started from the first contentful
// paint's entry, the scripts arrive one frame later and the answer is on screen first.
//
// The scripts start at once where nothing will be painted first (the head's guard found the
// pre-render stale, or the tab is in the background) or where the browser does not report paint
// entries; after a second in any case. They run in order (`async = false`), as the deferred
// scripts did. `sources` is the list of script URLs, in the order they must run.
export function startAfterPaintScript(sources) {
  return `(function(){var started=false,d=document;function start(){if(started)return;started=true;` +
    `${JSON.stringify(sources)}.forEach(function(src){var s=d.createElement("script");s.src=src;s.async=false;` +
    `d.body.appendChild(s)})}` +
    `var P=window.PerformanceObserver;` +
    `if(d.documentElement.classList.contains("llmcalc-stale")||d.visibilityState!=="visible"||!P||` +
    `(P.supportedEntryTypes||[]).indexOf("paint")<0)return start();` +
    `new P(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();start()}})` +
    `.observe({type:"paint",buffered:true});setTimeout(start,1000)})();`;
}
