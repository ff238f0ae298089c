// Fine-tuning settings (issue #21 item 13): optimizer, LoRA rank, micro-batch, sequence length,
// activation checkpointing, GPUs and sharding, each a share-link key, read by the core's
// finetune estimate.
import { LlmCalc } from './00-namespace.mjs';

const el = LlmCalc.dom.el;
const option = LlmCalc.dom.option;
const OPTIMIZERS = ['adamw', 'adamw_8bit', 'paged_adamw_8bit', 'adafactor', 'sgd'];
const SHARDING = ['none', 'zero1', 'zero2', 'zero3', 'fsdp'];
const NUMBERS = { ft_rank: [1, 4096], ft_mb: [1, 4096], ft_seq: [1, 10485760], ft_gpus: [1, 1024] };

LlmCalc.finetuneEditor = function (t, onSet) {
  const inputs = {};
  const errors = {};
  const box = el('details', { class: 'advanced', id: 'finetune-settings' }, el('summary', { text: t('ft_settings') }));
  const menu = (key, values) => {
    const node = el('select', { id: 'f-' + key });
    values.forEach((value) => node.appendChild(option(value, value)));
    node.addEventListener('change', () => onSet(key, node.value));
    inputs[key] = node;
    box.appendChild(el('div', { class: 'field' }, el('label', { for: 'f-' + key, text: t(key) }), node));
  };
  menu('ft_opt', OPTIMIZERS);
  Object.keys(NUMBERS).forEach((key) => {
    const [min, max] = NUMBERS[key];
    const message = t('invalid_whole_number').replace('{min}', String(min)).replace('{max}', String(max));
    const number = LlmCalc.numberBox(key, min, max, { message: message }, (value) => onSet(key, value));
    inputs[key] = number.input;
    errors[key] = number.error;
    box.appendChild(el('div', { class: 'field' }, el('label', { for: 'f-' + key, text: t(key) }), number.input, number.error));
  });
  menu('ft_shard', SHARDING);
  const checkpointing = el('input', { id: 'f-ft_ckpt', type: 'checkbox' });
  checkpointing.addEventListener('change', () => onSet('ft_ckpt', checkpointing.checked ? 1 : 0));
  box.appendChild(el('div', { class: 'field' }, el('label', { for: 'f-ft_ckpt', text: t('ft_ckpt') }), checkpointing));
  return {
    element: box,
    render(state) {
      LlmCalc.dom.setValue(inputs.ft_opt, state.ft_opt);
      LlmCalc.dom.setValue(inputs.ft_shard, state.ft_shard);
      Object.keys(NUMBERS).forEach((key) => {
        LlmCalc.dom.showValid(inputs[key], String(state[key]), errors[key]);
      });
      checkpointing.checked = state.ft_ckpt === 1;
    },
  };
};
