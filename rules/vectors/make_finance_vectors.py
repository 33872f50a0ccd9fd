#!/usr/bin/env python3
# Regenerates finance.json: python3 rules/vectors/make_finance_vectors.py > rules/vectors/finance.json
# A second, independent implementation (60-digit Decimal) so the Rust formula
# (and any future site calculator) is checked against numbers it did not produce.
import json, math
from decimal import Decimal, getcontext
getcontext().prec = 60
# Independent implementation in high-precision Decimal arithmetic.
def pmt(P, B, rate, n, N):
    P,B=Decimal(str(P)),Decimal(str(B))
    r = Decimal(str(rate))/100/n
    if r == 0: return (P-B)/N
    g = (1+r)**N
    return (P - B/g)*r/(1-1/g)
def calc(c):
    N = round(c["term_years"]*c["periods_per_year"])
    P = Decimal(str(c["amount"]))-Decimal(str(c["trade_in"]))+Decimal(str(c["establishment_fee"]))
    p = pmt(P, c["residual"], c["interest_rate"], c["periods_per_year"], N) if N>0 else Decimal(0)
    rep = 0 if p <= 0 else int(math.ceil(p))
    total = float(round(Decimal(N)*rep + Decimal(str(c["establishment_fee"])), 2))
    credit = Decimal(str(c["amount"]))-Decimal(str(c["trade_in"]))
    if credit<=0 or p<=0 or N<=0:
        cr = round(c["interest_rate"],2)
    else:
        def pv(a):
            r = Decimal(a)/100/c["periods_per_year"]
            if r==0: return p*N+Decimal(str(c["residual"]))
            g=(1+r)**N
            return p*(1-1/g)/r + Decimal(str(c["residual"]))/g
        lo,hi=Decimal(0),Decimal(200)
        for _ in range(120):
            m=(lo+hi)/2
            if pv(m)>credit: lo=m
            else: hi=m
        cr = float(round((lo+hi)/2, 2))
    return {"repayment": rep, "total": total, "comparison_rate": cr, "shows_amount": rep > 25}
def loan(amount, rate, years, per=52, trade=0, fee=0, res=0):
    return {"amount":amount,"trade_in":trade,"establishment_fee":fee,"residual":res,"interest_rate":rate,"term_years":years,"periods_per_year":per}
cases = [
 ("spec example: $30,000 over 5 years at 10% weekly", loan(30000,10,5)),
 ("spec example: $30,000 over 5 years at 6.29% weekly", loan(30000,6.29,5)),
 ("fortnightly", loan(30000,10,5,26)),
 ("monthly", loan(30000,10,5,12)),
 ("trade-in reduces the principal", loan(45990,8.5,5,52,trade=10000)),
 ("establishment fee 1360.50 raises repayment and comparison rate", loan(30000,10,5,52,fee=1360.5)),
 ("30% residual is discounted", loan(30000,10,5,52,res=9000)),
 ("half-year term", loan(18500,7.5,3.5,52)),
 ("zero interest: straight division, rounded up", loan(30000,0,5,52)),
 ("one year monthly at the top rate", loan(250000,15,1,12)),
 ("small loan shows Enquire for Finance", loan(1000,10,7,52)),
 ("fees listed by one variant: 395 + 6 + 912.25", loan(35000,9.99,5,12,fee=1313.25)),
]
quotes = []
def q(name, settings, price, term):
    full = {"default_interest_rate":10.0,"min_interest_rate":0.5,"max_interest_rate":15.0,"default_term_years":5.0,"min_price":1000,"max_price":250000,"establishment_fee":0.0}
    full.update(settings)
    rate = min(max(full["default_interest_rate"], full["min_interest_rate"]), full["max_interest_rate"])
    r = calc(loan(price, rate, term, 52, fee=full["establishment_fee"]))
    quotes.append({"name":name,"settings":full,"price":price,"term_years":term,"expected":{"weeklyRepaymentAmount":r["repayment"],"comparisonRate":r["comparison_rate"],"advertisedRate":round(rate,2)}})
q("default settings, $30,000, 5 years", {}, 30000, 5)
q("8.5% with a $395 fee", {"default_interest_rate":8.5,"establishment_fee":395}, 42990, 5)
q("rate above the calculator maximum is clamped", {"default_interest_rate":22}, 15000, 3)
doc = {
 "description": "Finance calculator test vectors, read by the tests in rules/src/finance.rs (the formula behind the worker's indicative quotes) and by edge/tests/features.test.mjs (the quote call's answer). The site has no calculator of its own yet; one must be tested against this file. Repayment rounded up to whole dollars; total = periods x term x repayment + establishment_fee; comparison_rate 2 decimals; shows_amount false when repayment <= 25. Expected values computed with an independent 60-digit Decimal implementation.",
 "loans": [{"name":n,"input":c,"expected":calc(c)} for n,c in cases],
 "quotes": quotes,
}
print(json.dumps(doc, indent=2))
