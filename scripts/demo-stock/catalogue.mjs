// Static data shared by generate.mjs and placeholders.mjs: makes, models,
// caravans and the three demo dealers with their locations.
// Prices are rough Australian drive-away prices of a new car in 2026 dollars;
// used prices are derived from them by age and kilometres.

/** simple_body value -> image slug used in /images/stock/<slug>-<n>.svg */
export const BODY_SLUGS = {
  Sedan: 'sedan',
  Hatch: 'hatch',
  SUV: 'suv',
  Ute: 'ute',
  Van: 'van',
  Wagon: 'wagon',
  'Cab Chassis': 'cab-chassis',
  Caravan: 'caravan',
};

/** Six colour variants of every stock placeholder; index 0 is variant 1. */
export const COLOUR_VARIANTS = [
  { name: 'white', bg: '#e4ebf3', bg2: '#f7f9fc', paint: '#fbfbf8', line: '#9aa6b2' },
  { name: 'silver', bg: '#e3e7ec', bg2: '#f5f6f8', paint: '#b9c0c8', line: '#7d8792' },
  { name: 'black', bg: '#dfe4ea', bg2: '#f3f5f7', paint: '#2a2f37', line: '#15181d' },
  { name: 'blue', bg: '#dde8f6', bg2: '#f2f7fd', paint: '#1f5fae', line: '#153f74' },
  { name: 'red', bg: '#f5e3e3', bg2: '#fcf4f4', paint: '#c0262d', line: '#7e181c' },
  { name: 'green', bg: '#e0eee5', bg2: '#f3f9f5', paint: '#3d6b4f', line: '#274634' },
];

/** Paint colour words -> colour variant number (1..6). */
export function colourVariant(colour) {
  const c = (colour || '').toLowerCase();
  if (/white|pearl|ivory|glacier|snow|frost|crystal/.test(c)) return 1;
  if (/silver|grey|gray|graphite|gun|steel|titanium|platinum|magnetic/.test(c)) return 2;
  if (/black|ebony|onyx|jet|midnight|phantom|ink/.test(c)) return 3;
  if (/blue|ocean|sapphire|navy|aqua|teal|cyan|horizon/.test(c)) return 4;
  if (/red|crimson|ruby|flame|fire|orange|copper/.test(c)) return 5;
  return 6;
}

/** Makes: badge colour for the logo, VIN world manufacturer identifiers. */
export const MAKES = {
  Toyota: { colour: '#d71920', wmi: ['JTN', 'JTM', 'MR0', 'JTE'], warranty: 5 },
  Kia: { colour: '#05141f', wmi: ['KNA', 'KNE'], warranty: 7 },
  MG: { colour: '#a3141b', wmi: ['LSJ', 'SDP'], warranty: 10 },
  Hyundai: { colour: '#002c5f', wmi: ['KMH', 'KMT'], warranty: 5 },
  Mazda: { colour: '#6b0f1a', wmi: ['JM0', 'MM0', 'JMZ'], warranty: 5 },
  Isuzu: { colour: '#c8102e', wmi: ['JAA', 'MPA', 'JAL'], warranty: 6 },
  Ford: { colour: '#003478', wmi: ['WF0', 'MNA', 'MPB'], warranty: 5 },
  Nissan: { colour: '#3d3d3d', wmi: ['JN1', 'MNT', 'SJN'], warranty: 5 },
  Suzuki: { colour: '#e30613', wmi: ['JS3', 'MA3', 'TSM'], warranty: 5 },
  Subaru: { colour: '#0c2f6b', wmi: ['JF1', 'JF2'], warranty: 5 },
  Mitsubishi: { colour: '#c4161c', wmi: ['JMF', 'MMA', 'JA4'], warranty: 5 },
  Volkswagen: { colour: '#001e50', wmi: ['WVW', 'WVG', 'WV1'], warranty: 5 },
  Holden: { colour: '#8b0000', wmi: ['6G1', '6G2', 'KL3'], warranty: 3 },
  Honda: { colour: '#cc0000', wmi: ['JHM', 'MRH', 'SHH'], warranty: 5 },
  Tesla: { colour: '#171a20', wmi: ['LRW', '5YJ', '7SA'], warranty: 4 },
  Jayco: { colour: '#00529b', wmi: ['6T9', '6J1'], warranty: 2 },
  Coromal: { colour: '#5b2a86', wmi: ['6A8'], warranty: 2 },
  'New Age': { colour: '#b5121b', wmi: ['6H9'], warranty: 2 },
  Crusader: { colour: '#1b4332', wmi: ['6U9'], warranty: 2 },
};

export function slugify(s) {
  return String(s)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// Body defaults: body text, bodyconfiguration, seats, doors, dimensions (mm),
// GVM (kg), braked towing (kg), fuel tank (L), combined consumption (L/100km).
export const BODY_DEFAULTS = {
  Hatch: { body: '5D Hatchback', conf: null, seats: 5, doors: 5, len: 4330, wid: 1790, hgt: 1450, gvm: 1820, tow: 1200, cap: 50, cons: 6.1 },
  Sedan: { body: '4D Sedan', conf: null, seats: 5, doors: 4, len: 4720, wid: 1830, hgt: 1445, gvm: 2050, tow: 1500, cap: 55, cons: 6.4 },
  SUV: { body: '4D Wagon', conf: null, seats: 5, doors: 5, len: 4560, wid: 1855, hgt: 1680, gvm: 2250, tow: 1800, cap: 55, cons: 7.2 },
  Ute: { body: 'Dual Cab Utility', conf: 'Dual Cab', seats: 5, doors: 4, len: 5370, wid: 1900, hgt: 1815, gvm: 3150, tow: 3500, cap: 80, cons: 8.4 },
  Van: { body: '4D Van', conf: 'Long Wheelbase', seats: 3, doors: 4, len: 5330, wid: 1950, hgt: 2285, gvm: 3500, tow: 1900, cap: 70, cons: 8.7 },
  Wagon: { body: '4D Wagon', conf: null, seats: 5, doors: 5, len: 4870, wid: 1875, hgt: 1675, gvm: 2400, tow: 2000, cap: 63, cons: 7.5 },
  'Cab Chassis': { body: '2D Cab Chassis', conf: 'Single Cab', seats: 3, doors: 2, len: 6250, wid: 1995, hgt: 2260, gvm: 4500, tow: 3500, cap: 100, cons: 14.2 },
};

export const TRANS = {
  CVT: ['Automatic', 'Constant Variable Transmission', 'CVT'],
  eCVT: ['Automatic', 'E-CVT Automatic', 'E-CVT'],
  '6A': ['Automatic', '6 Speed Automatic', 'Sports Automatic'],
  '7D': ['Automatic', '7 Speed Auto Dual Clutch', 'Dual Clutch'],
  '8A': ['Automatic', '8 Speed Automatic', 'Sports Automatic'],
  '9A': ['Automatic', '9 Speed Automatic', 'Automatic'],
  '10A': ['Automatic', '10 Speed Automatic', 'Automatic'],
  '1R': ['Automatic', '1 Speed Reduction Gear', 'Reduction Gear'],
  AMT: ['Automatic', '6 Speed Automated Manual', 'Automated Manual'],
  '5M': ['Manual', '5 Speed Manual', 'Manual'],
  '6M': ['Manual', '6 Speed Manual', 'Manual'],
};

export const FUEL = {
  Petrol: 'Unleaded Petrol',
  Premium: 'Premium Unleaded Petrol',
  Diesel: 'Diesel',
  Hybrid: 'Hybrid Petrol/Electric',
  PHEV: 'Plug-in Hybrid Petrol/Electric',
  Electric: 'Electric',
};

/**
 * m(make, model, simple_body, opts)
 * opts: series, fuel (key of FUEL), eng [litres, cylinders, induction, torqueNm],
 *   trans (key of TRANS), drive, from, to (model years on sale), isNew (sold new by
 *   a demo dealer), grades [[badge, price, overrides]], plus BODY_DEFAULTS overrides.
 */
function m(make, model, simple_body, opts) {
  return { make, model, simple_body, fuel: 'Petrol', trans: '8A', drive: 'FWD', from: 2012, to: 2026, isNew: true, ...opts };
}
const HY = { fuel: 'Hybrid' };
const EV = { fuel: 'Electric', eng: [null, null, null, 0], trans: '1R' };

export const MODELS = [
  // Toyota
  m('Toyota', 'Corolla', 'Hatch', { series: 'MZEA12R', eng: [2.0, 4, 'Aspirated', 205], trans: 'CVT', from: 2013, grades: [['Ascent Sport', 33990], ['Ascent Sport Hybrid', 36490, { ...HY, eng: [1.8, 4, 'Aspirated', 142], trans: 'eCVT' }], ['SX Hybrid', 40490, { ...HY, eng: [1.8, 4, 'Aspirated', 142], trans: 'eCVT' }], ['ZR Hybrid', 45490, { ...HY, eng: [1.8, 4, 'Aspirated', 142], trans: 'eCVT' }]] }),
  m('Toyota', 'Camry', 'Sedan', { series: 'AXVH80R', fuel: 'Hybrid', eng: [2.5, 4, 'Aspirated', 221], trans: 'eCVT', from: 2012, len: 4915, grades: [['Ascent', 43990], ['SX', 48990], ['SL', 54990]] }),
  m('Toyota', 'RAV4', 'SUV', { series: 'AXAH52R', fuel: 'Hybrid', eng: [2.5, 4, 'Aspirated', 221], trans: 'eCVT', from: 2013, len: 4600, grades: [['GX', 41990, { fuel: 'Petrol', eng: [2.0, 4, 'Aspirated', 207], trans: 'CVT' }], ['GXL Hybrid', 49990], ['XSE Hybrid AWD', 56990, { drive: 'AWD' }], ['Cruiser Hybrid AWD', 58990, { drive: 'AWD' }], ['Edge AWD', 61990, { drive: 'AWD', eng: [2.5, 4, 'Aspirated', 243] }]] }),
  m('Toyota', 'HiLux', 'Ute', { series: 'GUN126R', fuel: 'Diesel', eng: [2.8, 4, 'Turbo Intercooled', 500], trans: '6A', drive: '4WD', from: 2012, grades: [['Workmate 4x2', 38990, { drive: 'RWD', fuel: 'Petrol', eng: [2.7, 4, 'Aspirated', 245], conf: 'Single Cab', body: 'Cab Chassis' }], ['SR 4x4 Double Cab', 58990], ['SR5 4x4 Double Cab', 67990], ['Rogue 4x4 Double Cab', 75990], ['GR Sport 4x4', 82990]] }),
  m('Toyota', 'LandCruiser 300', 'SUV', { series: 'FJA300R', fuel: 'Diesel', eng: [3.3, 6, 'Twin Turbo Intercooled', 700], trans: '10A', drive: '4WD', from: 2021, seats: 7, len: 4980, wid: 1980, hgt: 1950, gvm: 3280, tow: 3500, cap: 110, cons: 8.9, grades: [['GX', 105990, { seats: 5 }], ['GXL', 113990], ['VX', 126990], ['Sahara', 144990], ['GR Sport', 151990, { seats: 5 }]] }),
  m('Toyota', 'LandCruiser Prado', 'SUV', { series: 'GDJ250R', fuel: 'Diesel', eng: [2.8, 4, 'Turbo Intercooled', 500], trans: '8A', drive: '4WD', from: 2012, seats: 7, len: 4925, wid: 1980, hgt: 1870, gvm: 3050, tow: 3500, cap: 110, cons: 7.9, grades: [['GX', 80990, { seats: 5 }], ['GXL', 89990], ['VX', 99990], ['Altitude', 101990], ['Kakadu', 109990]] }),
  m('Toyota', 'Kluger', 'SUV', { series: 'AXUH78R', fuel: 'Hybrid', eng: [2.5, 4, 'Aspirated', 242], trans: 'eCVT', drive: 'AWD', from: 2013, seats: 7, len: 4966, wid: 1930, hgt: 1755, gvm: 2620, tow: 2000, cap: 65, cons: 5.6, grades: [['GX', 61990], ['GXL', 71990], ['Grande', 82990]] }),
  m('Toyota', 'Yaris Cross', 'SUV', { series: 'MXPJ10R', fuel: 'Hybrid', eng: [1.5, 3, 'Aspirated', 120], trans: 'eCVT', from: 2020, len: 4180, hgt: 1595, tow: 400, cap: 36, cons: 3.8, grades: [['GX', 33990], ['GXL', 36990], ['Urban', 40990], ['GR Sport', 42990]] }),
  m('Toyota', 'C-HR', 'SUV', { series: 'MAXH10R', fuel: 'Hybrid', eng: [2.0, 4, 'Aspirated', 188], trans: 'eCVT', from: 2017, len: 4360, hgt: 1565, tow: 725, cap: 43, cons: 4.6, grades: [['GXL', 44990], ['Koba', 51990], ['GR Sport', 56990, { drive: 'AWD' }]] }),
  m('Toyota', 'bZ4X', 'SUV', { series: 'XEAM10R', ...EV, from: 2022, len: 4690, tow: 750, cap: null, cons: null, grades: [['FWD', 55990, { eng: [null, null, null, 266] }], ['AWD', 67990, { drive: 'AWD', eng: [null, null, null, 337] }]] }),
  m('Toyota', 'HiAce', 'Van', { series: 'GDH300R', fuel: 'Diesel', eng: [2.8, 4, 'Turbo Intercooled', 450], trans: '6A', drive: 'RWD', from: 2012, grades: [['LWB Van', 57990], ['LWB Crew Van', 61990, { seats: 5 }], ['SLWB Van', 63990, { len: 5915, conf: 'Super Long Wheelbase' }]] }),
  m('Toyota', 'Fortuner', 'SUV', { series: 'GUN156R', fuel: 'Diesel', eng: [2.8, 4, 'Turbo Intercooled', 500], trans: '6A', drive: '4WD', from: 2015, seats: 7, len: 4795, hgt: 1835, gvm: 2750, tow: 3100, cap: 80, cons: 7.6, grades: [['GX', 58990], ['GXL', 63990], ['Crusade', 70990]] }),
  m('Toyota', 'Yaris', 'Hatch', { series: 'MXPA10R', eng: [1.5, 3, 'Aspirated', 145], trans: 'CVT', from: 2012, isNew: false, len: 3940, grades: [['Ascent Sport', 27990], ['SX', 30990]] }),
  // Kia
  m('Kia', 'Picanto', 'Hatch', { series: 'JA', eng: [1.25, 4, 'Aspirated', 122], trans: '6A', from: 2013, to: 2025, isNew: false, len: 3595, grades: [['S', 18990, { trans: '5M' }], ['GT-Line', 21990]] }),
  m('Kia', 'K4', 'Sedan', { series: 'CL4', eng: [2.0, 4, 'Aspirated', 179], trans: 'CVT', from: 2025, grades: [['S', 31990], ['Sport', 35990], ['GT-Line', 43490, { eng: [1.6, 4, 'Turbo Intercooled', 265], trans: '8A' }]] }),
  m('Kia', 'Cerato', 'Hatch', { series: 'BD', eng: [2.0, 4, 'Aspirated', 192], trans: '6A', from: 2013, to: 2024, isNew: false, grades: [['S', 28490], ['Sport', 31490], ['GT', 40990, { eng: [1.6, 4, 'Turbo Intercooled', 265], trans: '7D' }]] }),
  m('Kia', 'Seltos', 'SUV', { series: 'SP2', eng: [2.0, 4, 'Aspirated', 180], trans: 'CVT', from: 2020, len: 4385, grades: [['S', 31990], ['Sport+', 37990], ['GT-Line AWD', 46990, { drive: 'AWD', eng: [1.6, 4, 'Turbo Intercooled', 265], trans: '7D' }]] }),
  m('Kia', 'Sportage', 'SUV', { series: 'NQ5', eng: [2.0, 4, 'Aspirated', 192], trans: '6A', from: 2013, len: 4660, grades: [['S', 37990], ['SX', 41490], ['SX+ Hybrid', 52990, { ...HY, eng: [1.6, 4, 'Turbo Intercooled', 265] }], ['GT-Line Diesel AWD', 56490, { fuel: 'Diesel', drive: 'AWD', eng: [2.0, 4, 'Turbo Intercooled', 416] }]] }),
  m('Kia', 'Sorento', 'SUV', { series: 'MQ4', fuel: 'Diesel', eng: [2.2, 4, 'Turbo Intercooled', 440], drive: 'AWD', from: 2013, seats: 7, len: 4815, tow: 2000, grades: [['Sport', 53990], ['Sport+', 58990], ['GT-Line Hybrid', 72990, { ...HY, eng: [1.6, 4, 'Turbo Intercooled', 350], trans: '6A' }]] }),
  m('Kia', 'Carnival', 'Wagon', { series: 'KA4', eng: [3.5, 6, 'Aspirated', 355], from: 2015, seats: 8, len: 5155, wid: 1995, hgt: 1775, conf: 'People Mover', grades: [['S', 55990], ['SLi', 64990], ['Platinum Hybrid', 79990, { ...HY, eng: [1.6, 4, 'Turbo Intercooled', 367], trans: '6A', seats: 7 }]] }),
  m('Kia', 'EV5', 'SUV', { series: 'OV1', ...EV, from: 2025, len: 4615, tow: 1800, cap: null, cons: null, grades: [['Air', 60990, { eng: [null, null, null, 310] }], ['Earth', 67990, { eng: [null, null, null, 310] }], ['GT-Line AWD', 79990, { drive: 'AWD', eng: [null, null, null, 480] }]] }),
  m('Kia', 'EV6', 'SUV', { series: 'CV', ...EV, drive: 'RWD', from: 2022, len: 4695, hgt: 1550, tow: 1600, cap: null, cons: null, grades: [['Air', 72990, { eng: [null, null, null, 350] }], ['GT-Line AWD', 86990, { drive: 'AWD', eng: [null, null, null, 605] }]] }),
  m('Kia', 'Tasman', 'Ute', { series: 'TK', fuel: 'Diesel', eng: [2.2, 4, 'Turbo Intercooled', 441], drive: '4WD', from: 2025, grades: [['S 4x4 Dual Cab', 56990], ['SX 4x4 Dual Cab', 62990], ['X-Line 4x4 Dual Cab', 71990]] }),
  // MG
  m('MG', 'MG3', 'Hatch', { series: 'SZP1', eng: [1.5, 4, 'Aspirated', 141], trans: 'CVT', from: 2016, len: 4113, grades: [['Vibe', 21990], ['Excite', 23990], ['Hybrid+ Essence', 30990, { ...HY, trans: 'eCVT', eng: [1.5, 4, 'Aspirated', 128] }]] }),
  m('MG', 'ZS', 'SUV', { series: 'AZS1', eng: [1.5, 4, 'Aspirated', 150], trans: 'CVT', from: 2018, len: 4430, tow: 500, grades: [['Vibe', 27990], ['Excite', 30990], ['Hybrid+ Essence', 36990, { ...HY, trans: 'eCVT' }]] }),
  m('MG', 'ZS EV', 'SUV', { series: 'AZS1', ...EV, from: 2021, len: 4323, tow: 500, cap: null, cons: null, grades: [['Excite', 44990, { eng: [null, null, null, 280] }], ['Essence Long Range', 49990, { eng: [null, null, null, 280] }]] }),
  m('MG', 'HS', 'SUV', { series: 'SAS23', eng: [1.5, 4, 'Turbo Intercooled', 250], trans: '7D', from: 2019, len: 4655, tow: 1500, grades: [['Vibe', 35990], ['Excite', 38990], ['Essence', 43990], ['Essence Plug-in Hybrid', 51990, { fuel: 'PHEV', trans: '10A', eng: [1.5, 4, 'Turbo Intercooled', 370] }]] }),
  m('MG', 'MG4', 'Hatch', { series: 'EH32', ...EV, drive: 'RWD', from: 2023, len: 4287, cap: null, cons: null, tow: 500, grades: [['Excite 51', 36990, { eng: [null, null, null, 250] }], ['Essence 64', 46990, { eng: [null, null, null, 250] }], ['XPOWER', 57990, { drive: 'AWD', eng: [null, null, null, 600] }]] }),
  m('MG', 'MG5', 'Sedan', { series: 'SZP2', eng: [1.5, 4, 'Aspirated', 150], trans: 'CVT', from: 2021, isNew: false, len: 4675, grades: [['Vibe', 24990], ['Excite', 26990]] }),
  // Hyundai
  m('Hyundai', 'i30', 'Hatch', { series: 'PD.V4', eng: [2.0, 4, 'Aspirated', 192], trans: 'CVT', from: 2012, grades: [['Active', 30990], ['N Line', 36990, { eng: [1.6, 4, 'Turbo Intercooled', 265], trans: '7D' }], ['N Line Premium', 41990, { eng: [1.6, 4, 'Turbo Intercooled', 265], trans: '7D' }]] }),
  m('Hyundai', 'i30 Sedan', 'Sedan', { series: 'CN7.V1', eng: [2.0, 4, 'Aspirated', 192], trans: 'CVT', from: 2021, grades: [['Active', 31990], ['Elite', 36990], ['Hybrid', 38990, { ...HY, eng: [1.6, 4, 'Aspirated', 265], trans: '6A' }]] }),
  m('Hyundai', 'Venue', 'SUV', { series: 'QX.V4', eng: [1.6, 4, 'Aspirated', 151], trans: '6A', from: 2019, len: 4040, hgt: 1592, grades: [['Venue', 26990, { trans: '6M' }], ['Active', 29990], ['Elite', 32990]] }),
  m('Hyundai', 'Kona', 'SUV', { series: 'SX2.V1', eng: [2.0, 4, 'Aspirated', 180], trans: 'CVT', from: 2018, len: 4350, grades: [['Kona', 34990], ['Premium Hybrid', 45990, { ...HY, trans: '6A', eng: [1.6, 4, 'Aspirated', 265] }], ['Electric Premium', 64990, { ...EV, eng: [null, null, null, 255] }]] }),
  m('Hyundai', 'Tucson', 'SUV', { series: 'NX4.V2', eng: [2.0, 4, 'Aspirated', 192], trans: '6A', from: 2015, len: 4640, tow: 1650, grades: [['Tucson', 38990], ['Elite', 44990], ['Elite Hybrid AWD', 51990, { ...HY, drive: 'AWD', eng: [1.6, 4, 'Turbo Intercooled', 350] }], ['Highlander N Line Diesel AWD', 59990, { fuel: 'Diesel', drive: 'AWD', eng: [2.0, 4, 'Turbo Intercooled', 416] }]] }),
  m('Hyundai', 'Santa Fe', 'SUV', { series: 'MX5.V1', fuel: 'Hybrid', eng: [1.6, 4, 'Turbo Intercooled', 367], trans: '6A', drive: 'AWD', from: 2013, seats: 7, len: 4830, tow: 1650, grades: [['Hybrid', 58990], ['Elite Hybrid', 66990], ['Calligraphy Hybrid', 77990, { seats: 6 }]] }),
  m('Hyundai', 'Ioniq 5', 'SUV', { series: 'NE.V3', ...EV, drive: 'RWD', from: 2021, len: 4655, hgt: 1605, tow: 1600, cap: null, cons: null, grades: [['Standard Range', 63990, { eng: [null, null, null, 350] }], ['Dynamiq', 72990, { eng: [null, null, null, 350] }], ['Epiq AWD', 84990, { drive: 'AWD', eng: [null, null, null, 605] }]] }),
  m('Hyundai', 'Staria', 'Wagon', { series: 'US4.V1', fuel: 'Diesel', eng: [2.2, 4, 'Turbo Intercooled', 430], drive: 'AWD', from: 2021, seats: 8, len: 5253, wid: 1997, hgt: 1990, conf: 'People Mover', grades: [['Elite', 67990], ['Highlander', 77990]] }),
  // Mazda
  m('Mazda', 'Mazda2', 'Hatch', { series: 'DJ', eng: [1.5, 4, 'Aspirated', 144], trans: '6A', from: 2014, len: 4065, grades: [['G15 Pure', 25990], ['G15 Evolve', 27990], ['G15 GT', 30990]] }),
  m('Mazda', 'Mazda3', 'Hatch', { series: 'BP', eng: [2.0, 4, 'Aspirated', 200], trans: '6A', from: 2012, grades: [['G20 Pure', 34990], ['G20 Evolve', 37990, { trans: '6M' }], ['G25 GT', 43990, { eng: [2.5, 4, 'Aspirated', 252] }], ['G25 Astina', 46990, { eng: [2.5, 4, 'Aspirated', 252] }]] }),
  m('Mazda', 'CX-3', 'SUV', { series: 'DK', eng: [2.0, 4, 'Aspirated', 195], trans: '6A', from: 2015, len: 4275, grades: [['G20 Pure', 30990], ['G20 Evolve', 32990], ['G20 Akari AWD', 38990, { drive: 'AWD' }]] }),
  m('Mazda', 'CX-30', 'SUV', { series: 'DM', eng: [2.0, 4, 'Aspirated', 200], trans: '6A', from: 2019, len: 4395, grades: [['G20 Pure', 37990], ['G20 Evolve', 39990], ['G25 Astina AWD', 50990, { drive: 'AWD', eng: [2.5, 4, 'Aspirated', 252] }]] }),
  m('Mazda', 'CX-5', 'SUV', { series: 'KF', eng: [2.5, 4, 'Aspirated', 252], trans: '6A', from: 2012, len: 4575, tow: 1800, grades: [['G20 Maxx', 40990, { eng: [2.0, 4, 'Aspirated', 199] }], ['G25 Maxx Sport AWD', 45990, { drive: 'AWD' }], ['G25 Touring AWD', 48990, { drive: 'AWD' }], ['G35 Akera AWD', 59990, { drive: 'AWD', eng: [2.5, 4, 'Turbo Intercooled', 420] }]] }),
  m('Mazda', 'CX-60', 'SUV', { series: 'KH', fuel: 'Diesel', eng: [3.3, 6, 'Turbo Intercooled', 550], drive: 'AWD', from: 2022, len: 4740, tow: 2500, grades: [['D50e Evolve', 66990], ['D50e GT', 74990], ['P50e Azami PHEV', 85990, { fuel: 'PHEV', eng: [2.5, 4, 'Aspirated', 500] }]] }),
  m('Mazda', 'CX-90', 'SUV', { series: 'KK', fuel: 'Premium', eng: [3.3, 6, 'Turbo Intercooled', 500], drive: 'AWD', from: 2023, seats: 8, len: 5100, wid: 1994, hgt: 1750, tow: 2500, grades: [['G50e Touring', 79990], ['G50e GT', 88990], ['D50e Azami', 99990, { fuel: 'Diesel', eng: [3.3, 6, 'Turbo Intercooled', 550], seats: 7 }]] }),
  m('Mazda', 'BT-50', 'Ute', { series: 'TF', fuel: 'Diesel', eng: [3.0, 4, 'Turbo Intercooled', 450], trans: '6A', drive: '4WD', from: 2012, grades: [['XT 4x4 Dual Cab', 57990], ['GT 4x4 Dual Cab', 64990], ['Thunder 4x4 Dual Cab', 72990]] }),
  // Isuzu (trucks sold new at the Capalaba truck centre; D-Max / MU-X used only)
  m('Isuzu', 'NLR', 'Cab Chassis', { truck: true, series: '45-150 Traypack', fuel: 'Diesel', eng: [3.0, 4, 'Turbo Intercooled', 375], trans: 'AMT', drive: 'RWD', from: 2014, gvm: 4500, len: 5995, grades: [['45-150 AMT Traypack', 84990], ['45-150 SWB', 79990, { trans: '5M' }]] }),
  m('Isuzu', 'NPR', 'Cab Chassis', { truck: true, series: '75-190', fuel: 'Diesel', eng: [5.2, 4, 'Turbo Intercooled', 513], trans: 'AMT', drive: 'RWD', from: 2014, gvm: 7500, len: 6945, wid: 2035, hgt: 2300, cap: 140, cons: 16.5, tow: 3500, grades: [['75-190 AMT MWB', 98990], ['75-190 Crew Cab', 107990, { seats: 7, conf: 'Crew Cab', doors: 4 }]] }),
  m('Isuzu', 'FRR', 'Cab Chassis', { truck: true, series: '110-260', fuel: 'Diesel', eng: [5.2, 4, 'Turbo Intercooled', 761], trans: 'AMT', drive: 'RWD', from: 2014, gvm: 11000, len: 8310, wid: 2225, hgt: 2535, cap: 200, cons: 21.0, tow: 4500, grades: [['110-260 AMT LWB', 149990], ['110-260 Tipper', 161990]] }),
  m('Isuzu', 'FVZ', 'Cab Chassis', { truck: true, series: '260-300', fuel: 'Diesel', eng: [7.8, 6, 'Turbo Intercooled', 981], trans: 'AMT', drive: 'RWD', from: 2015, gvm: 26000, len: 9420, wid: 2490, hgt: 2810, cap: 300, cons: 30.0, tow: 6000, grades: [['260-300 Auto LWB', 214990]] }),
  m('Isuzu', 'D-Max', 'Ute', { series: 'RG', fuel: 'Diesel', eng: [3.0, 4, 'Turbo Intercooled', 450], trans: '6A', drive: '4WD', from: 2012, isNew: false, grades: [['SX 4x4 Crew Cab', 52990], ['LS-U 4x4 Crew Cab', 62990], ['X-Terrain 4x4 Crew Cab', 71990]] }),
  m('Isuzu', 'MU-X', 'SUV', { series: 'RJ', fuel: 'Diesel', eng: [3.0, 4, 'Turbo Intercooled', 450], trans: '6A', drive: '4WD', from: 2013, isNew: false, seats: 7, len: 4850, tow: 3500, grades: [['LS-M 4x4', 59990], ['LS-T 4x4', 70990]] }),
  // Ford
  m('Ford', 'Transit Custom', 'Van', { series: 'VO', fuel: 'Diesel', eng: [2.0, 4, 'Turbo Intercooled', 390], drive: 'FWD', from: 2014, len: 5050, hgt: 1985, gvm: 3100, grades: [['320L Trend', 54990], ['320L Sport', 64990], ['320L Double Cab Trend', 61990, { seats: 6, conf: 'Crew Van' }]] }),
  m('Ford', 'Transit', 'Van', { series: 'VO', fuel: 'Diesel', eng: [2.0, 4, 'Turbo Intercooled', 390], trans: '10A', drive: 'RWD', from: 2014, len: 5981, hgt: 2550, gvm: 4490, cap: 80, cons: 9.3, conf: 'Mid Roof', grades: [['350L LWB Mid Roof', 66990], ['430E LWB Jumbo High Roof', 72990, { len: 6704, hgt: 2779, gvm: 4300, conf: 'High Roof' }], ['470E Single Cab Chassis', 73990, { simple_body: 'Cab Chassis', body: '2D Cab Chassis', conf: 'Single Cab', gvm: 4700 }]] }),
  m('Ford', 'Ranger', 'Ute', { series: 'PY', fuel: 'Diesel', eng: [2.0, 4, 'Twin Turbo Intercooled', 500], trans: '10A', drive: '4WD', from: 2012, isNew: false, grades: [['XLT 3.0 V6 4x4 Double Cab', 71990, { eng: [3.0, 6, 'Turbo Intercooled', 600] }], ['XLS 4x4 Double Cab', 59990, { eng: [2.0, 4, 'Turbo Intercooled', 405], trans: '6A' }], ['Wildtrak 4x4 Double Cab', 74990], ['Raptor', 89990, { fuel: 'Premium', eng: [3.0, 6, 'Twin Turbo Intercooled', 583] }]] }),
  m('Ford', 'Everest', 'SUV', { series: 'UB', fuel: 'Diesel', eng: [3.0, 6, 'Turbo Intercooled', 600], trans: '10A', drive: '4WD', from: 2015, isNew: false, seats: 7, len: 4914, tow: 3500, cap: 80, grades: [['Trend 4WD', 71990], ['Sport 4WD', 74990], ['Platinum 4WD', 84990]] }),
  m('Ford', 'Focus', 'Hatch', { series: 'SA', eng: [1.5, 3, 'Turbo Intercooled', 240], from: 2012, to: 2022, isNew: false, grades: [['Trend', 30990], ['ST-Line', 34990], ['ST', 48990, { eng: [2.3, 4, 'Turbo Intercooled', 420], trans: '6M' }]] }),
  m('Ford', 'Escape', 'SUV', { series: 'ZH', eng: [2.0, 4, 'Turbo Intercooled', 373], drive: 'AWD', from: 2017, to: 2024, isNew: false, grades: [['AWD', 41990], ['ST-Line AWD', 46990]] }),
  // Nissan
  m('Nissan', 'Navara', 'Ute', { series: 'D23', fuel: 'Diesel', eng: [2.3, 4, 'Twin Turbo Intercooled', 450], trans: '7A', drive: '4WD', from: 2014, grades: [['SL 4x4 Dual Cab', 52990, { trans: '6M' }], ['ST 4x4 Dual Cab', 58990], ['ST-X 4x4 Dual Cab', 66990], ['PRO-4X 4x4 Dual Cab', 72990]] }),
  m('Nissan', 'X-Trail', 'SUV', { series: 'T33', eng: [2.5, 4, 'Aspirated', 244], trans: 'CVT', from: 2013, len: 4680, tow: 1650, grades: [['ST 2WD', 40990], ['ST-L 4WD', 48990, { drive: 'AWD', seats: 7 }], ['Ti e-4ORCE', 60990, { ...HY, drive: 'AWD', eng: [1.5, 3, 'Turbo Intercooled', 525], trans: '1R' }], ['N-TREK e-4ORCE', 62990, { ...HY, drive: 'AWD', eng: [1.5, 3, 'Turbo Intercooled', 525], trans: '1R' }]] }),
  m('Nissan', 'Qashqai', 'SUV', { series: 'J12', eng: [1.3, 4, 'Turbo Intercooled', 250], trans: 'CVT', from: 2014, len: 4425, tow: 1500, grades: [['ST', 35990], ['ST+', 39990], ['Ti', 49990], ['Ti e-POWER', 55990, { ...HY, eng: [1.5, 3, 'Turbo Intercooled', 330], trans: '1R' }]] }),
  m('Nissan', 'Juke', 'SUV', { series: 'F16', eng: [1.0, 3, 'Turbo Intercooled', 180], trans: '7D', from: 2020, len: 4210, tow: 1250, grades: [['ST+', 33990], ['Ti', 40990]] }),
  m('Nissan', 'Pathfinder', 'SUV', { series: 'R53', eng: [3.5, 6, 'Aspirated', 381], trans: '9A', from: 2013, seats: 7, len: 5004, wid: 1978, hgt: 1798, tow: 2700, cap: 74, grades: [['ST 2WD', 57990], ['Ti 4WD', 73990, { drive: '4WD' }], ['Ti-L 4WD', 79990, { drive: '4WD' }]] }),
  m('Nissan', 'Patrol', 'SUV', { series: 'Y62', fuel: 'Premium', eng: [5.6, 8, 'Aspirated', 560], trans: '7A', drive: '4WD', from: 2013, seats: 8, len: 5175, wid: 1995, hgt: 1940, gvm: 3500, tow: 3500, cap: 140, cons: 14.4, grades: [['Ti', 89990], ['Ti-L', 101990, { seats: 7 }], ['Warrior', 104990]] }),
  m('Nissan', 'Ariya', 'SUV', { series: 'FE0', ...EV, from: 2024, len: 4595, tow: 750, cap: null, cons: null, grades: [['Engage 63kWh', 59990, { eng: [null, null, null, 300] }], ['Evolve e-4ORCE', 79990, { drive: 'AWD', eng: [null, null, null, 600] }]] }),
  m('Nissan', 'Leaf', 'Hatch', { series: 'ZE1', ...EV, from: 2019, isNew: false, len: 4490, cap: null, cons: null, tow: null, grades: [['Leaf', 49990, { eng: [null, null, null, 320] }], ['e+', 61490, { eng: [null, null, null, 340] }]] }),
  // Suzuki
  m('Suzuki', 'Swift', 'Hatch', { series: 'AZH', fuel: 'Hybrid', eng: [1.2, 3, 'Aspirated', 112], trans: 'CVT', from: 2012, len: 3860, tow: 1000, cap: 37, cons: 4.0, grades: [['Hybrid', 24490, { trans: '5M' }], ['Hybrid GL', 25990], ['Hybrid GLX', 28490]] }),
  m('Suzuki', 'Vitara', 'SUV', { series: 'LY', eng: [1.6, 4, 'Aspirated', 156], trans: '6A', from: 2015, len: 4175, tow: 1200, cap: 47, grades: [['Vitara', 31990], ['Turbo Allgrip', 40490, { drive: 'AWD', eng: [1.4, 4, 'Turbo Intercooled', 220] }]] }),
  m('Suzuki', 'Jimny', 'SUV', { series: 'JB74', eng: [1.5, 4, 'Aspirated', 130], trans: '4A', drive: '4WD', from: 2018, seats: 4, doors: 3, body: '3D Wagon', len: 3645, wid: 1645, hgt: 1725, gvm: 1435, tow: 1300, cap: 40, cons: 6.9, grades: [['Lite', 32990, { trans: '5M' }], ['Jimny', 35490], ['XL', 38990, { doors: 5, body: '4D Wagon', len: 3985 }]] }),
  m('Suzuki', 'S-Cross', 'SUV', { series: 'JY', eng: [1.4, 4, 'Turbo Intercooled', 220], trans: '6A', from: 2014, len: 4300, tow: 1200, grades: [['S-Cross', 36990], ['Plus Allgrip', 43990, { drive: 'AWD' }]] }),
  m('Suzuki', 'Fronx', 'SUV', { series: 'AUH', fuel: 'Hybrid', eng: [1.5, 4, 'Aspirated', 138], trans: '6A', from: 2025, len: 3995, tow: 1000, grades: [['Hybrid', 34990]] }),
  m('Suzuki', 'Ignis', 'Hatch', { series: 'MF', eng: [1.2, 4, 'Aspirated', 120], trans: 'CVT', from: 2017, to: 2024, isNew: false, len: 3700, grades: [['GL', 19990], ['GLX', 21990]] }),
  // Subaru
  m('Subaru', 'Crosstrek', 'SUV', { series: 'G6X', eng: [2.0, 4, 'Aspirated', 196], trans: 'CVT', drive: 'AWD', from: 2023, len: 4495, tow: 1270, grades: [['2.0R', 37490], ['2.0L', 40490], ['Hybrid S', 50990, { ...HY }]] }),
  m('Subaru', 'XV', 'SUV', { series: 'G5X', eng: [2.0, 4, 'Aspirated', 196], trans: 'CVT', drive: 'AWD', from: 2012, to: 2022, isNew: false, len: 4485, grades: [['2.0i-L', 34990], ['2.0i-S', 40490]] }),
  m('Subaru', 'Forester', 'SUV', { series: 'S6', eng: [2.5, 4, 'Aspirated', 241], trans: 'CVT', drive: 'AWD', from: 2012, len: 4655, tow: 1800, grades: [['2.5i', 42490], ['Sport', 47490], ['Hybrid S', 56990, { ...HY, eng: [2.0, 4, 'Aspirated', 196] }]] }),
  m('Subaru', 'Outback', 'Wagon', { series: 'BT', eng: [2.5, 4, 'Aspirated', 252], trans: 'CVT', drive: 'AWD', from: 2012, len: 4870, tow: 2000, grades: [['AWD', 45990], ['Sport XT', 57990, { eng: [2.4, 4, 'Turbo Intercooled', 350] }], ['Touring', 53990]] }),
  m('Subaru', 'Impreza', 'Hatch', { series: 'GU', eng: [2.0, 4, 'Aspirated', 196], trans: 'CVT', drive: 'AWD', from: 2012, grades: [['2.0R', 35990], ['2.0S', 40490]] }),
  m('Subaru', 'WRX', 'Sedan', { series: 'VN', fuel: 'Premium', eng: [2.4, 4, 'Turbo Intercooled', 350], trans: '6M', drive: 'AWD', from: 2014, grades: [['WRX', 56990], ['tS', 66990, { trans: 'CVT' }]] }),
  m('Subaru', 'Solterra', 'SUV', { series: 'XEAM10', ...EV, drive: 'AWD', from: 2024, len: 4690, tow: 750, cap: null, cons: null, grades: [['AWD', 68990, { eng: [null, null, null, 337] }], ['Touring AWD', 74990, { eng: [null, null, null, 337] }]] }),
  // Used-only makes
  m('Mitsubishi', 'Triton', 'Ute', { series: 'MV', fuel: 'Diesel', eng: [2.4, 4, 'Turbo Intercooled', 470], trans: '6A', drive: '4WD', from: 2012, isNew: false, grades: [['GLX+ 4x4 Double Cab', 55990], ['GLS 4x4 Double Cab', 61990], ['GSR 4x4 Double Cab', 65990]] }),
  m('Mitsubishi', 'Outlander', 'SUV', { series: 'ZM', eng: [2.5, 4, 'Aspirated', 245], trans: 'CVT', from: 2012, seats: 7, len: 4710, tow: 2000, grades: [['ES 2WD', 38990], ['Aspire AWD', 46990, { drive: 'AWD' }], ['Exceed PHEV AWD', 66990, { fuel: 'PHEV', drive: 'AWD', eng: [2.4, 4, 'Aspirated', 195], trans: '1R', seats: 5 }]] }),
  m('Mitsubishi', 'ASX', 'SUV', { series: 'XD', eng: [2.0, 4, 'Aspirated', 197], trans: 'CVT', from: 2012, isNew: false, len: 4365, grades: [['MR', 30990], ['LS', 32990], ['Exceed', 36990]] }),
  m('Mitsubishi', 'Pajero Sport', 'SUV', { series: 'QF', fuel: 'Diesel', eng: [2.4, 4, 'Turbo Intercooled', 430], drive: '4WD', from: 2016, isNew: false, seats: 7, len: 4825, tow: 3100, grades: [['GLX 4x4', 53990], ['Exceed 4x4', 60990]] }),
  m('Volkswagen', 'Golf', 'Hatch', { series: 'Mk8', fuel: 'Premium', eng: [1.4, 4, 'Turbo Intercooled', 250], trans: '8A', from: 2013, isNew: false, grades: [['110TSI Life', 39990], ['R-Line', 45990], ['GTI', 59990, { eng: [2.0, 4, 'Turbo Intercooled', 370], trans: '7D' }]] }),
  m('Volkswagen', 'Polo', 'Hatch', { series: 'AW', fuel: 'Premium', eng: [1.0, 3, 'Turbo Intercooled', 200], trans: '7D', from: 2012, isNew: false, len: 4074, grades: [['85TSI Life', 30990], ['GTI', 42990, { eng: [2.0, 4, 'Turbo Intercooled', 320], trans: '6A' }]] }),
  m('Volkswagen', 'Tiguan', 'SUV', { series: '5N', fuel: 'Premium', eng: [2.0, 4, 'Turbo Intercooled', 320], trans: '7D', drive: 'AWD', from: 2012, isNew: false, len: 4509, tow: 2000, grades: [['110TSI Life', 45990, { drive: 'FWD', eng: [1.4, 4, 'Turbo Intercooled', 250], trans: '6A' }], ['162TSI Elegance', 58990], ['R-Line', 62990]] }),
  m('Volkswagen', 'Amarok', 'Ute', { series: '2H', fuel: 'Diesel', eng: [2.0, 4, 'Twin Turbo Intercooled', 500], trans: '10A', drive: '4WD', from: 2012, isNew: false, grades: [['Core TDI405', 57990], ['Style TDI500', 65990], ['Aventura TDI600', 79990, { eng: [3.0, 6, 'Turbo Intercooled', 600] }]] }),
  m('Holden', 'Commodore', 'Sedan', { series: 'VF II', eng: [3.6, 6, 'Aspirated', 350], trans: '6A', drive: 'RWD', from: 2013, to: 2020, isNew: false, len: 4964, tow: 1600, cap: 71, cons: 9.0, grades: [['Evoke', 36990], ['SV6', 41990], ['SS-V Redline', 57990, { eng: [6.2, 8, 'Aspirated', 570], fuel: 'Premium' }]] }),
  m('Holden', 'Commodore Sportwagon', 'Wagon', { series: 'VF II', eng: [3.6, 6, 'Aspirated', 350], trans: '6A', drive: 'RWD', from: 2013, to: 2017, isNew: false, len: 4990, cap: 71, cons: 9.2, grades: [['Evoke', 39990], ['SV6', 44990]] }),
  m('Holden', 'Colorado', 'Ute', { series: 'RG', fuel: 'Diesel', eng: [2.8, 4, 'Turbo Intercooled', 500], trans: '6A', drive: '4WD', from: 2012, to: 2020, isNew: false, grades: [['LS 4x4 Crew Cab', 48990], ['LTZ 4x4 Crew Cab', 56990], ['Z71 4x4 Crew Cab', 60990]] }),
  m('Holden', 'Trax', 'SUV', { series: 'TJ', eng: [1.8, 4, 'Aspirated', 175], trans: '6A', from: 2013, to: 2020, isNew: false, len: 4240, grades: [['LS', 25990], ['LTZ', 30990, { eng: [1.4, 4, 'Turbo Intercooled', 200] }]] }),
  m('Honda', 'Civic', 'Hatch', { series: 'FL', eng: [1.5, 4, 'Turbo Intercooled', 240], trans: 'CVT', from: 2012, isNew: false, len: 4560, grades: [['VTi-LX', 47990], ['e:HEV LX', 55990, { ...HY, eng: [2.0, 4, 'Aspirated', 315], trans: 'eCVT' }]] }),
  m('Honda', 'CR-V', 'SUV', { series: 'RS', eng: [1.5, 4, 'Turbo Intercooled', 240], trans: 'CVT', from: 2012, isNew: false, len: 4691, seats: 7, grades: [['VTi', 45990], ['VTi L7', 52990], ['e:HEV RS', 62990, { ...HY, seats: 5, eng: [2.0, 4, 'Aspirated', 335], trans: 'eCVT', drive: 'AWD' }]] }),
  m('Honda', 'HR-V', 'SUV', { series: 'RV', eng: [1.5, 4, 'Aspirated', 145], trans: 'CVT', from: 2015, isNew: false, len: 4340, grades: [['Vi X', 38990], ['e:HEV L', 47990, { ...HY, trans: 'eCVT', eng: [1.5, 4, 'Aspirated', 253] }]] }),
  m('Honda', 'Jazz', 'Hatch', { series: 'GK', eng: [1.5, 4, 'Aspirated', 155], trans: 'CVT', from: 2012, to: 2020, isNew: false, len: 3989, grades: [['VTi', 19990], ['VTi-L', 23990]] }),
  m('Tesla', 'Model 3', 'Sedan', { series: 'Highland', ...EV, drive: 'RWD', from: 2019, isNew: false, len: 4720, tow: 1000, cap: null, cons: null, grades: [['Rear-Wheel Drive', 55990, { eng: [null, null, null, 420] }], ['Long Range AWD', 67990, { drive: 'AWD', eng: [null, null, null, 493] }]] }),
  m('Tesla', 'Model Y', 'SUV', { series: 'Juniper', ...EV, drive: 'RWD', from: 2022, isNew: false, len: 4797, hgt: 1624, tow: 1600, cap: null, cons: null, grades: [['Rear-Wheel Drive', 58990, { eng: [null, null, null, 420] }], ['Long Range AWD', 69990, { drive: 'AWD', eng: [null, null, null, 493] }]] }),
];

for (const t of ['4A', '7A']) {
  if (!TRANS[t]) TRANS[t] = ['Automatic', `${t[0]} Speed Automatic`, 'Automatic'];
}

/**
 * Caravans: body_length / body_width in feet, weights in kg.
 * [make, model, badge, newPrice, length ft, width ft, tare, ATM, axle, sleeps, from]
 */
export const CARAVANS = [
  ['Jayco', 'Journey', 'Outback 21.61-3', 87990, 21.6, 7.5, 2390, 2990, 'Tandem', 4, 2016],
  ['Jayco', 'Starcraft', '19.58-4', 64990, 19.5, 7.4, 2040, 2550, 'Single', 3, 2015],
  ['Jayco', 'Silverline', 'Outback 23.66-4', 109990, 23.6, 7.8, 2850, 3500, 'Tandem', 2, 2017],
  ['Jayco', 'Crosstrak', '14.48-2', 52990, 14.4, 6.9, 1540, 1990, 'Single', 2, 2021],
  ['Jayco', 'Conquest', '24.72-3', 114990, 24.7, 7.8, 2960, 3500, 'Tandem', 4, 2018],
  ['Coromal', 'Element', '542s', 71990, 18.0, 7.6, 1980, 2500, 'Single', 2, 2016],
  ['Coromal', 'Appeal', '652s', 84990, 21.0, 7.6, 2380, 2980, 'Tandem', 4, 2016],
  ['New Age', 'Manta Ray', 'MR19ERS', 89990, 19.0, 7.5, 2460, 3100, 'Tandem', 2, 2017],
  ['New Age', 'Big Red', 'BR22ERS', 112990, 22.0, 7.8, 2990, 3600, 'Tandem', 4, 2017],
  ['Crusader', 'Excalibur', '21ft Ensuite', 96990, 21.0, 7.6, 2620, 3300, 'Tandem', 2, 2018],
  ['Crusader', 'Exalt', '19ft Family Bunk', 84990, 19.0, 7.6, 2480, 3100, 'Tandem', 5, 2019],
];

/* ---------------------------------------------------------------- dealers */

// Names, streets and phones match dealers/<slug>.yaml (locations[]).
function loc(id, name, street, city, state, postcode, phone, kind = 'sales') {
  return { id, name, street, city, state, postcode, phone, kind };
}

/**
 * Each dealer: slug, name, id, stock prefix, seed, locations, and stock
 * segments { location, n, types {new, demo, used} weights, makes (for new/demo:
 * list of makes; for used: weighted map), caravans (n caravans) }.
 */
export const DEALERS = [
  {
    slug: 'brisbane-motor-group',
    name: 'Brisbane Motor Group',
    id: 1041,
    prefix: 'BMG',
    idBase: 410000,
    state: 'QLD',
    wordmark: { primary: '#0b3d91', accent: '#f28c28', line1: 'BRISBANE', line2: 'MOTOR GROUP' },
    locations: [
      loc('bmg-newstead', 'Brisbane Motor Group Newstead', '40 Breakfast Creek Rd', 'Newstead', 'QLD', '4006', '(07) 3555 0101'),
      loc('bmg-eagle-farm', 'Brisbane Motor Group Eagle Farm', '180 Kingsford Smith Dr', 'Eagle Farm', 'QLD', '4009', '(07) 3555 0102'),
      // Used cars at Springwood can be seen at two other places for a test drive (the feed's distribution_locations).
      { ...loc('bmg-springwood', 'Brisbane Motor Group Springwood', '3350 Pacific Hwy', 'Springwood', 'QLD', '4127', '(07) 3555 0103'), distribution: ['Logan Central', 'Beenleigh'] },
      loc('bmg-capalaba', 'Brisbane Motor Group Capalaba Trucks & Vans', '12 Redland Bay Rd', 'Capalaba', 'QLD', '4157', '(07) 3555 0104'),
    ],
    segments: [
      { location: 'bmg-newstead', n: 56, types: { new: 0.8, demo: 0.2 }, makes: ['Kia'] },
      { location: 'bmg-newstead', n: 32, types: { new: 0.85, demo: 0.15 }, makes: ['MG'] },
      { location: 'bmg-eagle-farm', n: 42, types: { new: 0.8, demo: 0.2 }, makes: ['Hyundai'] },
      { location: 'bmg-eagle-farm', n: 44, types: { new: 0.8, demo: 0.2 }, makes: ['Mazda'] },
      { location: 'bmg-springwood', n: 114, types: { used: 1 }, makes: { Toyota: 22, Mazda: 12, Hyundai: 10, Kia: 8, Ford: 11, Mitsubishi: 8, Nissan: 6, Volkswagen: 5, Holden: 6, Honda: 5, Subaru: 4, MG: 4, Isuzu: 5, Tesla: 3, Suzuki: 2 } },
      { location: 'bmg-capalaba', n: 26, types: { new: 0.9, demo: 0.1 }, makes: ['Isuzu', 'Ford'], models: ['NLR', 'NPR', 'FRR', 'FVZ', 'Transit', 'Transit Custom'] },
      { location: 'bmg-capalaba', n: 6, types: { used: 1 }, makes: { Isuzu: 3, Ford: 2, Toyota: 1 }, models: ['NLR', 'NPR', 'FRR', 'Transit', 'Transit Custom', 'HiAce'] },
    ],
    preorder: { make: 'Kia', model: 'EV5', location: 'bmg-newstead' },
  },
  {
    slug: 'perth-auto-collective',
    name: 'Perth Auto Collective',
    id: 2087,
    prefix: 'PAC',
    idBase: 520000,
    state: 'WA',
    wordmark: { primary: '#12343b', accent: '#2cb1a1', line1: 'PERTH AUTO', line2: 'COLLECTIVE' },
    locations: [
      loc('pac-osborne-park-nissan', 'Osborne Park Nissan', '300 Scarborough Beach Rd', 'Osborne Park', 'WA', '6017', '(08) 9555 0201'),
      loc('pac-osborne-park-suzuki', 'Osborne Park Suzuki', '310 Scarborough Beach Rd', 'Osborne Park', 'WA', '6017', '(08) 9555 0202'),
      loc('pac-midland-subaru', 'Midland Subaru', '1 Great Eastern Hwy', 'Midland', 'WA', '6056', '(08) 9555 0203'),
      { ...loc('pac-cannington-used', 'Cannington Used Cars & Caravans', '1400 Albany Hwy', 'Cannington', 'WA', '6107', '(08) 9555 0204'), distribution: ['Armadale'] },
    ],
    segments: [
      { location: 'pac-osborne-park-nissan', n: 68, types: { new: 0.8, demo: 0.2 }, makes: ['Nissan'] },
      { location: 'pac-osborne-park-suzuki', n: 44, types: { new: 0.85, demo: 0.15 }, makes: ['Suzuki'] },
      { location: 'pac-midland-subaru', n: 50, types: { new: 0.8, demo: 0.2 }, makes: ['Subaru'] },
      { location: 'pac-midland-subaru', n: 6, types: { used: 1 }, makes: { Subaru: 1 } },
      { location: 'pac-cannington-used', n: 72, types: { used: 1 }, makes: { Toyota: 18, Ford: 12, Mazda: 9, Mitsubishi: 9, Hyundai: 7, Kia: 6, Nissan: 8, Subaru: 4, Suzuki: 3, Volkswagen: 5, Holden: 7, Isuzu: 5, Honda: 4, Tesla: 2 } },
      { location: 'pac-cannington-used', n: 20, caravans: true, types: { new: 0.35, used: 0.65 } },
    ],
    preorder: { make: 'Nissan', model: 'Patrol', location: 'pac-osborne-park-nissan' },
  },
  {
    slug: 'sunshine-coast-toyota',
    name: 'Sunshine Coast Toyota',
    id: 3112,
    prefix: 'SCT',
    idBase: 630000,
    state: 'QLD',
    manufacturer: 'Toyota',
    subscriptions: true,
    wordmark: { primary: '#c8102e', accent: '#f6b01e', line1: 'SUNSHINE COAST', line2: 'TOYOTA' },
    locations: [
      loc('sct-maroochydore', 'Sunshine Coast Toyota Maroochydore Sales', '90 Maroochydore Rd', 'Maroochydore', 'QLD', '4558', '(07) 5455 0301'),
      loc('sct-nambour', 'Sunshine Coast Toyota Nambour', '2 Mill St', 'Nambour', 'QLD', '4560', '(07) 5455 0302'),
      loc('sct-maroochydore-service', 'Sunshine Coast Toyota Maroochydore Service', '92 Maroochydore Rd', 'Maroochydore', 'QLD', '4558', '(07) 5455 0303', 'service'),
    ],
    segments: [
      { location: 'sct-maroochydore', n: 78, types: { new: 0.78, demo: 0.22 }, makes: ['Toyota'] },
      { location: 'sct-maroochydore', n: 44, types: { used: 1 }, makes: { Toyota: 26, Mazda: 4, Hyundai: 3, Kia: 3, Ford: 3, Mitsubishi: 2, Nissan: 2, Honda: 2, Volkswagen: 1, Subaru: 1, Holden: 1 } },
      { location: 'sct-nambour', n: 52, types: { new: 0.8, demo: 0.2 }, makes: ['Toyota'] },
      { location: 'sct-nambour', n: 46, types: { used: 1 }, makes: { Toyota: 24, Mazda: 4, Hyundai: 3, Kia: 3, Ford: 4, Mitsubishi: 3, Nissan: 2, Honda: 2, Volkswagen: 1, Subaru: 1, Holden: 2, Suzuki: 1 } },
    ],
    preorder: { make: 'Toyota', model: 'LandCruiser 300', location: 'sct-maroochydore' },
    certifiedMake: 'Toyota',
  },
];

/** Every make the demo stock can use (for the logo placeholders). */
export function allMakes() {
  const s = new Set(MODELS.map((x) => x.make));
  for (const c of CARAVANS) s.add(c[0]);
  return [...s].sort();
}
