// The currency selector (money.js): the codes with a rate, the choice kept in the browser;
// a change re-renders the page, whose price requests then carry `currency=`.
import {fill, h} from '../../api.js';
import {chooseCurrency, currencies, currency, loadCurrencies} from '../../money.js';
import {route} from '../../router.js';

export function startCurrencySelector() {
  const select = document.getElementById('currency-select');
  const pick = (code) => {
    chooseCurrency(code);
    select.value = document.getElementById('foot-currency').textContent = currency().code;
    route();
  };
  select.addEventListener('change', () => pick(select.value));
  loadCurrencies().then(() => {
    fill(select, ...currencies().map((c) => h('option', {value: c.code}, c.code)));
    pick(currency().code);
  });
}
