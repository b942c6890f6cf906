/** Naira as people read it: '₦1,250,000.00'. Budgets are whole naira with up to two decimals. */
const NAIRA = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', maximumFractionDigits: 2 });

export const formatNaira = (value: number): string => NAIRA.format(value);
