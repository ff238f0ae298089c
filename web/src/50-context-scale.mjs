// Context slider positions: a log scale of "nice" token counts from 1K to the model's maximum.
import { LlmCalc } from './00-namespace.mjs';

function contextStops(maxTokens) {
  const stops = [];
  for (let power = 1024; power <= maxTokens; power *= 2) {
    stops.push(power);
    const between = power * 1.5;
    if (between < maxTokens && between < power * 2) stops.push(between);
  }
  if (stops.length === 0 || stops[stops.length - 1] !== maxTokens) stops.push(maxTokens);
  return stops;
}

// Index of the stop nearest to value (on a log scale).
function nearestStop(stops, value) {
  let best = 0;
  let bestDistance = Infinity;
  stops.forEach(function (stop, index) {
    const distance = Math.abs(Math.log(stop) - Math.log(Math.max(1, value)));
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}

LlmCalc.contextScale = { contextStops: contextStops, nearestStop: nearestStop };
