// The words for an alert rule (docs/api.md §13): its condition types, its channels, and
// one line describing a condition ("price below €12.00 on skinport").
import {fromUsd, money} from '../../money.js';

export const CONDITIONS = {
  percent_change: 'Moves by a percentage',
  price_below: 'Price falls below',
  price_above: 'Price rises above',
  bollinger_break: 'Breaks its Bollinger band',
  spread_above: 'Spread between markets above',
  volatility_rank: 'Among the most volatile',
};
export const CHANNELS = {
  ws: 'This dashboard (toast)',
  discord: 'Discord webhook',
  telegram: 'Telegram',
  webhook: 'Webhook (signed)'
};

export function describe(condition) {
  const on = condition.source ? ` on ${condition.source}` : '';
  switch (condition.type) {
    case 'price_above':
      return `price above ${money(fromUsd(condition.value))}${on}`;
    case 'price_below':
      return `price below ${money(fromUsd(condition.value))}${on}`;
    case 'percent_change': {
      const verb = condition.direction === 'up' ? 'rises' :
          condition.direction === 'down'        ? 'drops' :
                                                  'moves';
      return `${verb} ${condition.threshold} % in ${condition.window}`;
    }
    case 'bollinger_break':
      return `breaks its ${condition.window} Bollinger band`;
    case 'spread_above':
      return `spread above ${condition.threshold} %`;
    case 'volatility_rank':
      return `top ${condition.top} most volatile (${condition.window})`;
    default:
      return condition.type;
  }
}
