// Regenerates the fixture's cars.json, stock_summary and placeholder photos
// (astro-app/test/fixtures/site/). The output is committed; rerun only to change it.
import fs from 'node:fs';
const dir = new URL('../../astro-app/test/fixtures/site', import.meta.url).pathname;
const site = JSON.parse(fs.readFileSync(`${dir}/src/data/site.json`, 'utf8'));
const locs = site.locations.filter((l) => l.kind === 'sales');
const models = [
  ['Toyota', 'Corolla', 'Ascent Sport', 'ZWE211R', 'Hatch', 'Hybrid'],
  ['Toyota', 'HiLux', 'SR5', 'GUN126R', 'Ute', 'Diesel'],
  ['Toyota', 'RAV4', 'GX', 'AXAH52R', 'SUV', 'Hybrid'],
  ['Mazda', 'CX-5', 'Maxx Sport', 'KF', 'SUV', 'Petrol'],
  ['Mazda', 'BT-50', 'XT', 'TF', 'Ute', 'Diesel'],
  ['Hyundai', 'i30', 'Active', 'CN7', 'Sedan', 'Petrol'],
  ['Kia', 'Sportage', 'S', 'NQ5', 'SUV', 'Petrol'],
  ['Ford', 'Ranger', 'XLT', 'PY', 'Ute', 'Diesel'],
  ['MG', 'ZS', 'Excite', null, 'SUV', 'Petrol'],
];
const colours = ['#c0392b', '#2c3e50', '#7f8c8d', '#ecf0f1', '#1e5fa8', '#27ae60'];
fs.mkdirSync(`${dir}/public/fixture-images`, { recursive: true });
colours.forEach((c, i) => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480" viewBox="0 0 640 480"><rect width="640" height="480" fill="#dfe6ee"/><rect y="340" width="640" height="140" fill="#9aa5b1"/><path d="M110 330 L160 250 Q180 220 220 220 L420 220 Q460 220 490 250 L540 300 Q560 305 560 330 L560 350 L90 350 L90 335 Z" fill="${c}"/><path d="M190 260 L225 235 L310 235 L310 270 Z M330 235 L420 235 L460 270 L330 270 Z" fill="#cfe3f5"/><circle cx="200" cy="350" r="38" fill="#222"/><circle cx="450" cy="350" r="38" fill="#222"/><circle cx="200" cy="350" r="16" fill="#999"/><circle cx="450" cy="350" r="16" fill="#999"/><text x="20" y="40" font-family="sans-serif" font-size="22" fill="#555">fixture photo ${i + 1}</text></svg>`;
  fs.writeFileSync(`${dir}/public/fixture-images/car-${i + 1}.svg`, svg);
});
const fmt = (n) => '$' + n.toLocaleString('en-AU');
/**
 * What the generator's finance rules would give the fixture's cars: every
 * third car shows Manual lender figures, the others in stock ask the quote
 * service when priced; sold cars show neither, nor the calculator.
 */
function financeOf(i, status, price) {
  const inStock = status !== 'sold';
  const lender = inStock && price > 500 && i % 3 === 0;
  const rate = 6.99 + (i % 5) * 0.5;
  const comparison = rate + 0.62;
  const weekly = Math.ceil((price * 0.9 * (rate / 5200)) / (1 - Math.pow(1 + rate / 5200, -260)));
  return {
    lender: lender
      ? {
          lender_name: i % 2 ? 'Angle Auto Finance' : null,
          interest_rate: rate,
          interest_rate_text: `${rate.toFixed(2)}% p.a.`,
          comparison_rate_text: `${comparison.toFixed(2)}% p.a.`,
          repayment_text: fmt(weekly),
          per: 'week',
          term_years: 5,
          deposit: Math.round(price * 0.1),
          balloon: null,
          establishment_fee: i % 2 ? 395 : null,
          total_payable_text: null,
          disclaimer: null,
        }
      : null,
    quote: inStock && price > 0 && !lender,
    known_quote: null,
    calculator: inStock,
  };
}
const cars = [];
for (let i = 0; i < 26; i++) {
  const [make, model, badge, series, body, fuel] = models[i % models.length];
  const year = 2016 + (i % 9);
  const car_type = i % 7 === 0 ? 'new' : i % 5 === 0 ? 'demo' : 'used';
  let status = i === 5 ? 'sold' : i === 8 ? 'coming_soon' : 'in_stock';
  const price = 18990 + ((i * 3517) % 42000);
  const loc = locs[i % locs.length];
  const id = `car-${1000 + i}`;
  const name = `${year} ${make} ${model} ${badge}`;
  const slug = `${year}-${make}-${model}-${badge}-${1000 + i}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const km = car_type === 'new' ? 10 : car_type === 'demo' ? 1500 + i * 37 : 8000 + ((i * 14731) % 140000);
  const images = i === 3 || i === 8 ? [] : Array.from({ length: 1 + (i % 4) }, (_, k) => `/fixture-images/car-${((i + k) % colours.length) + 1}.svg`);
  let tag_banner = null;
  if (status === 'sold') tag_banner = 'SOLD';
  else if (status === 'coming_soon') tag_banner = 'COMING SOON';
  else if (i === 2) tag_banner = 'Reserved';
  else if (i === 10) tag_banner = 'Test Drive Only';
  else if (i === 25 || i === 24) tag_banner = 'New Arrival';
  const noPrice = i === 12;
  const specs = [
    ['Year', String(year)], ['Make', make], ['Model', model], ['Badge', badge],
    ['Series', series], ['Body', body], ['Transmission', i % 6 === 0 ? 'Manual' : 'Automatic'],
    ['Fuel', fuel], ['Drive', body === 'Ute' ? '4x4' : 'Front Wheel Drive'],
    ['Colour', ['Red', 'Blue', 'Silver', 'White', 'Grey', 'Black'][i % 6]],
    ['Odometer', `${km.toLocaleString('en-AU')} km`], ['Stock number', `BMG${5000 + i}`],
    ['VIN', `JTDKB3FU${String(100000000 + i * 7919).slice(0, 9)}`],
  ].filter(([, v]) => v).map(([label, value]) => ({ label, value }));
  const comments = i % 4 === 1 ? [] : [
    `This ${name} is ready to drive away today, with a full service history and two keys.`,
    'Finance available on approved credit. Trade-ins welcome — ask our team for a valuation.',
  ];
  cars.push({
    id, slug, name, year, make, model, badge, series, car_type, status,
    in_stock: status === 'in_stock' || status === 'coming_soon',
    price: noPrice ? 0 : price,
    price_text: noPrice ? site.copy.no_price_text : fmt(price),
    price_type: noPrice ? null : car_type === 'used' ? 'Excl. Govt. Charges' : 'Drive Away',
    was_price_text: i === 4 || i === 15 ? fmt(price + 2000) : null,
    km, transmission: i % 6 === 0 ? 'Manual' : 'Automatic', fuel, body,
    colour: ['Red', 'Blue', 'Silver', 'White', 'Grey', 'Black'][i % 6],
    drive: body === 'Ute' ? '4x4' : 'Front Wheel Drive',
    stocknum: `BMG${5000 + i}`, vin: i === 7 ? null : `JTDKB3FU${String(100000000 + i * 7919).slice(0, 9)}`,
    nvic: i === 7 ? null : `${i % 10}FX${String(10 + i)}A`,
    images, photos_count: images.length, tag_banner,
    tag: i === 10 ? 'Test Drive Only' : null, subscription_price: 0,
    reserved: i === 2,
    // The fixture dealer reserves every car in stock that is not reserved yet (no car_types/makes limits).
    checkout: site.features.checkout && (status === 'in_stock' || status === 'coming_soon') && i !== 2,
    certified: make === 'Toyota' && car_type === 'used' && i % 2 === 1,
    created_at: new Date(Date.UTC(2026, 10, 20 - i, 1, 0, 0)).toISOString(),
    // Sold "in 2100": inside any sold window at the fixture's built_at.
    location: {
      id: loc.id, name: loc.name, slug: loc.slug, suburb: loc.address.suburb, state: loc.address.state, phone: loc.phone,
      // The first location shows cars in two other places for test drives (the test-drive form's select).
      distribution_locations: loc === locs[0] ? ['Logan', 'Ipswich'] : [],
    },
    comment_paragraphs: comments,
    // The generator's sanitised HTML of the same paragraphs (generator/src/pipeline/rich_text.rs).
    comments_html: comments.map((c) => `<p>${c.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`).join(''),
    specs,
    // Search facets and relevance: seats, item type, features, categories, a custom rank.
    custom_rank: i === 13 ? 100 : i === 20 ? 50 : 0,
    seats: body === 'Ute' ? 5 : model === 'RAV4' ? 7 : 5,
    item_type: 'car',
    categories: body === 'Ute' ? ['4x4', 'Work'] : body === 'SUV' ? ['Family'] : [],
    filtered_features: [i % 2 === 0 && 'Apple CarPlay', i % 3 === 0 && 'Reversing Camera', body === 'Ute' && 'Tow Bar', i % 5 === 0 && 'Panoramic Sunroof'].filter(Boolean),
    dealership_slug: null,
    dealership_name: null,
    finance: financeOf(i, status, noPrice ? 0 : price),
    sold_at: status === 'sold' ? 4102444800 : null,
    detail: fixtureDetail({ i, slug, make, car_type, status, price, noPrice, images, vin: `JTDKB3FU${String(100000000 + i * 7919).slice(0, 9)}` }),
  });
}
/** The car page's own data (generator/src/pipeline/stock/detail.rs), varied so every block has a car showing it. */
function fixtureDetail({ i, slug, make, car_type, status, noPrice, vin }) {
  const inStock = status === 'in_stock' || status === 'coming_soon';
  const page = `/cars/${slug}/`;
  const button = (kind, label, href, extra = {}) => ({ kind, label, href, note: null, external: false, ...extra });
  const checkout = inStock && i !== 2 && !noPrice;
  const buttons = !inStock ? [] : [
    button('enquire', 'Enquire Now', `${page}#enquire`),
    ...(car_type === 'used' && i % 3 === 0 ? [button('history_report', 'Car History Report', `https://reports.example.com.au/${vin}.pdf`, { external: true })] : []),
    button('finance', 'Get Finance Quote', `${page}?enquiry=finance#enquire`),
    ...(status === 'in_stock' && i !== 2 && !noPrice ? [button('trade_in', 'Trade-In Valuation', `${page}?enquiry=trade-in#enquire`)] : []),
    ...(checkout ? [button('reserve', 'Reserve Car Now', `${page}checkout/`, { note: '$200 refundable deposit' })] : []),
    button('call_dealer', 'Call Now', 'tel:0735550101'),
  ];
  const features = ['Reversing Camera', 'Cruise Control', 'Apple CarPlay', 'Android Auto', 'Lane Keep Assist', 'Autonomous Emergency Braking', 'Bluetooth', 'Air Conditioning', 'Alloy Wheels', 'Keyless Entry'].slice(0, 4 + (i % 7));
  const tabs = [
    { kind: 'dealer_comments', title: 'Dealer Comments', items: [] },
    { kind: 'why_buy_from_us', title: 'Why Buy From Us', items: [{ title: 'Haggle-free price', text: 'The price you see is the price you pay.' }] },
    ...(checkout ? [{ kind: 'reserve_online', title: 'Reserve Online', items: [{ title: 'Reserve this car with a $200 deposit, 100% refundable', text: '' }, { title: 'We hold it for 48 hours', text: '' }] }] : []),
    { kind: 'features', title: 'Features', items: [] },
  ];
  return {
    sidebar_buttons: buttons,
    below_market: car_type === 'used' && inStock && i % 4 === 3 ? { amount: 1250, text: '$1,250 below market average' } : null,
    certified: make === 'Toyota' && car_type === 'used' && i % 2 === 1 && inStock ? { title: 'Toyota Certified Pre-Owned', benefits: ['90 point inspection', '1-year extra warranty', '12 months roadside assist'] } : null,
    key_information: [{ label: 'Engine size', value: '2.0 L' }, { label: 'Cylinders', value: '4' }],
    features,
    comment_preview: null,
    tabs,
    service_advantage: null,
    similar: [],
    checkout,
  };
}

// Newest first, like the generator's default order.
cars.sort((a, b) => b.created_at.localeCompare(a.created_at));
fs.writeFileSync(`${dir}/src/data/cars.json`, JSON.stringify(cars, null, 2) + '\n');
const byType = ['new', 'demo', 'used'].map((t) => ({ car_type: t, count: cars.filter((c) => c.car_type === t).length })).filter((x) => x.count);
const makes = {};
cars.forEach((c) => (makes[c.make] = (makes[c.make] || 0) + 1));
site.stock_summary = { total: cars.length, by_type: byType, makes: Object.entries(makes).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name, count]) => ({ name, count })) };
delete site.features.finance_quote;
site.finance = {
  disclaimer: 'Indicative only, not a binding quote. Based on a $30,000 secured loan over 5 years. Approved applicants only; fees, charges and lending criteria apply.',
  comparison_warning:
    'WARNING: This comparison rate is true only for the example given and may not include all fees and charges. Different terms, fees or other loan amounts might result in a different comparison rate.',
  page: '/finance/',
  calculator: {
    variant: 'standard', min_price: 1000, max_price: 250000, min_interest_rate: 0.5, max_interest_rate: 15, default_interest_rate: 10,
    default_term_years: 5, establishment_fee: 0, show_frequency: true, round_down: false, fees: [], comparison_rate_range: null, enquiry: 'link',
  },
};
fs.writeFileSync(`${dir}/src/data/site.json`, JSON.stringify(site, null, 2) + '\n');
console.log(cars.length, site.stock_summary);
