/* SPDX-License-Identifier: MIT */
/*
 * pad.js — judgeweb's one script (served as /pad.js, embedded at build;
 * src/web/pad.c).  Small, no dependency, and nothing needs it: every page
 * works without it.  Two things:
 *
 * 1. The ticker: every <time class="countdown" datetime="..."> shows the
 *    time left until its datetime, updated each second (the text first
 *    written stays as the element's title).
 *
 * 2. The order pad, on the game page of a signed-in power (the element
 *    #pad with data-legal, the URL of the orders it may give, and the
 *    board picture #pad-board): the picture's SVG is fetched and laid,
 *    transparent, over the picture, so its data-place and data-unit
 *    attributes take clicks and taps.  Tap a unit, then a place: a move
 *    (a retreat); tap a unit, then another unit, then a place: a support
 *    or a convoy of that unit there (its own place: a support to hold); in
 *    an adjustment tap a centre to build there or a unit to remove it.
 *    Where a tap could mean several orders, a list of them is offered;
 *    the list of a unit's orders is offered anyway.  What the pad writes
 *    is the order's text as a player mails it, from the judge's list
 *    (legal.json), appended to the orders' textarea (replacing the line
 *    already there for that unit); the player sends it with the form.
 */
(function () {
    'use strict';

    /* ---- the ticker ------------------------------------------------- */

    function two(n) {
        return (n < 10 ? '0' : '') + n;
    }

    function left(ms) {
        if (ms <= 0)
            return 'due now';
        var s = Math.floor(ms / 1000);
        var d = Math.floor(s / 86400);
        var text = two(Math.floor(s % 86400 / 3600)) + ':' +
                   two(Math.floor(s % 3600 / 60)) + ':' + two(s % 60);
        return 'in ' + (d ? d + (d === 1 ? ' day ' : ' days ') : '') + text;
    }

    function ticker() {
        var all = document.querySelectorAll('time.countdown[datetime]');
        if (!all.length)
            return;
        Array.prototype.forEach.call(all, function (t) {
            if (!t.title)
                t.title = t.textContent;
        });
        function tick() {
            var now = Date.now();
            Array.prototype.forEach.call(all, function (t) {
                var at = Date.parse(t.getAttribute('datetime'));
                if (!isNaN(at))
                    t.textContent = left(at - now);
            });
        }
        tick();
        setInterval(tick, 1000);
    }

    /* ---- the order pad ---------------------------------------------- */

    var SVG = 'http://www.w3.org/2000/svg';

    function prov(place) {
        return (place || '').split('/')[0];
    }

    function Pad(box, img, area, legal, svgText) {
        this.box = box;
        this.area = area;
        this.legal = legal;
        this.sel = null;   /* the unit chosen: an entry of legal.units */
        this.other = '';   /* the second unit's province (support, convoy) */
        this.byProv = {};
        var self = this;
        legal.units.forEach(function (u) {
            self.byProv[prov(u.place)] = u;
        });
        this.build(img, svgText);
    }

    Pad.prototype.build = function (img, svgText) {
        var doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
        var svg = doc.documentElement;
        if (!svg || svg.nodeName !== 'svg')
            return;
        /* its styles are the picture's own (the picture under it shows
         * them); the overlay is seen through (style.css) */
        Array.prototype.forEach.call(svg.querySelectorAll('style'),
                                     function (s) { s.remove(); });
        svg = document.importNode(svg, true);
        svg.removeAttribute('width');
        svg.removeAttribute('height');
        svg.setAttribute('class', 'pad-overlay');
        svg.setAttribute('aria-hidden', 'true');
        var inner = document.createElement('div');
        inner.className = 'pad-inner';
        img.parentNode.insertBefore(inner, img);
        inner.appendChild(img);
        inner.appendChild(svg);
        this.svg = svg;
        this.wrap = inner.parentNode;
        var self = this;
        svg.addEventListener('click', function (e) {
            self.tap(e.target);
        });
        /* the panel: what to do next, and the orders a tap may mean */
        var panel = document.createElement('div');
        panel.className = 'pad-panel';
        panel.id = 'pad-panel';
        this.say = document.createElement('p');
        this.say.id = 'pad-say';
        this.say.setAttribute('aria-live', 'polite');
        this.list = document.createElement('div');
        this.list.className = 'pad-choices';
        this.list.id = 'pad-choices';
        var zoom = document.createElement('button');
        zoom.type = 'button';
        zoom.textContent = 'Zoom';
        zoom.id = 'pad-zoom';
        zoom.addEventListener('click', function () {
            self.wrap.classList.toggle('zoomed');
        });
        panel.appendChild(this.say);
        panel.appendChild(this.list);
        panel.appendChild(zoom);
        /* below the board: a tap's choices appear without moving it */
        this.box.insertBefore(panel, this.wrap.nextSibling);
        this.box.classList.add('pad-on');
        this.reset();
    };

    Pad.prototype.hint = function () {
        var l = this.legal;
        if (l.type === 'adjustment') {
            if (l.due > 0)
                return 'Tap a centre to build there (' + l.due +
                       ' due), or pick below.';
            if (l.due < 0)
                return 'Tap a unit to remove it (' + (-l.due) + ' due).';
            return 'Nothing to build or remove.';
        }
        if (!l.units.length)
            return 'No unit to order in this phase.';
        return 'Tap one of your units' +
               (l.type === 'retreat' ? ' (dislodged) to retreat it.' : '.');
    };

    Pad.prototype.reset = function () {
        this.sel = null;
        this.other = '';
        this.mark();
        this.say.textContent = this.hint();
        if (this.legal.type === 'adjustment' && this.legal.builds.length)
            this.offer(this.legal.builds, null);
        else
            this.offer([], null);
    };

    /* Highlight the chosen unit's province and those a tap may order. */
    Pad.prototype.mark = function () {
        var svg = this.svg, sel = this.sel, other = this.other;
        Array.prototype.forEach.call(
            svg.querySelectorAll('.pad-sel, .pad-to'),
            function (e) { e.classList.remove('pad-sel', 'pad-to'); });
        if (!sel)
            return;
        var to = {};
        sel.orders.forEach(function (o) {
            if (other ? prov(o.target) === other : !o.target)
                to[prov(o.to || o.target || '')] = true;
        });
        Array.prototype.forEach.call(
            svg.querySelectorAll('path[data-place]'), function (p) {
                var pr = prov(p.getAttribute('data-place'));
                if (pr === prov(sel.place) || pr === other)
                    p.classList.add('pad-sel');
                else if (to[pr])
                    p.classList.add('pad-to');
            });
    };

    /* Buttons for these orders (each writes its text), and Cancel. */
    Pad.prototype.offer = function (orders, unit) {
        var self = this, list = this.list;
        while (list.firstChild)
            list.removeChild(list.firstChild);
        orders.forEach(function (o) {
            var b = document.createElement('button');
            b.type = 'button';
            b.className = 'pad-order';
            b.textContent = o.text;
            b.addEventListener('click', function () {
                self.write(o.text, unit);
            });
            list.appendChild(b);
        });
        if (this.sel) {
            var c = document.createElement('button');
            c.type = 'button';
            c.textContent = 'Cancel';
            c.className = 'pad-cancel';
            c.addEventListener('click', function () { self.reset(); });
            list.appendChild(c);
        }
    };

    /* The order's line into the textarea, instead of the unit's earlier. */
    Pad.prototype.write = function (text, unit) {
        var lines = this.area.value.split('\n').filter(function (l) {
            var t = l.trim().toUpperCase();
            return t !== '' && !(unit && (t.indexOf(unit + ' ') === 0 ||
                                         t.slice(-unit.length - 1) ===
                                             ' ' + unit));
        });
        lines.push(text);
        this.area.value = lines.join('\n') + '\n';
        this.area.dispatchEvent(new Event('input', {bubbles: true}));
        this.reset();
        this.say.textContent = 'Added: ' + text + '. ' + this.hint();
    };

    /* Write the one order, or offer the several; false when none. */
    Pad.prototype.pick = function (orders, unit, what) {
        if (orders.length === 1) {
            this.write(orders[0].text, unit);
            return true;
        }
        if (!orders.length)
            return false;
        this.say.textContent = what;
        this.offer(orders, unit);
        return true;
    };

    Pad.prototype.tap = function (target) {
        var el = target.closest ? target.closest('[data-unit], [data-place]')
                                : null;
        if (!el)
            return;
        var p = prov(el.getAttribute('data-place'));
        var l = this.legal, sel = this.sel;
        if (l.type === 'adjustment' && l.due > 0) {
            var builds = l.builds.filter(function (b) {
                return prov(b.place) === p;
            });
            if (!this.pick(builds, null, 'Build which unit?'))
                this.say.textContent = 'No build there. ' + this.hint();
            return;
        }
        if (!sel) {
            var u = this.byProv[p];
            if (!u) {
                this.say.textContent = 'Not a unit of yours. ' + this.hint();
                return;
            }
            if (u.orders.length === 1) {
                this.sel = u;
                this.write(u.orders[0].text, u.unit);
                return;
            }
            this.sel = u;
            this.mark();
            this.say.textContent = u.unit + ': tap where it goes, or a ' +
                                   'unit it supports or convoys, or pick:';
            this.offer(u.orders, u.unit);
            return;
        }
        if (this.other) {
            var other = this.other;
            var sc = sel.orders.filter(function (o) {
                return prov(o.target) === other &&
                       (o.to ? prov(o.to) === p : p === other);
            });
            if (!this.pick(sc, sel.unit, 'Which order?'))
                this.say.textContent = 'It cannot help there: tap another ' +
                                       'place, or Cancel.';
            return;
        }
        if (p === prov(sel.place)) {
            var hold = sel.orders.filter(function (o) {
                return o.kind === 'hold';
            });
            if (!this.pick(hold, sel.unit, ''))
                this.say.textContent = 'Tap another place.';
            return;
        }
        var moves = sel.orders.filter(function (o) {
            return !o.target && o.to && prov(o.to) === p;
        });
        var helps = sel.orders.filter(function (o) {
            return prov(o.target) === p;
        });
        if (helps.length) {
            /* a unit there: move on it, or help it; next tap says where */
            this.other = p;
            this.mark();
            this.say.textContent = sel.unit + ' and the unit in ' +
                                   p.toUpperCase() + ': tap where it goes ' +
                                   '(its own place to support it holding), ' +
                                   'or pick:';
            this.offer(moves.concat(helps), sel.unit);
            return;
        }
        if (!this.pick(moves, sel.unit, 'Which coast?'))
            this.say.textContent = sel.unit + ' cannot go there: tap ' +
                                   'another place, or Cancel.';
    };

    function pad() {
        var box = document.getElementById('pad');
        var img = document.getElementById('pad-board');
        var area = document.querySelector('textarea[name=orders]');
        if (!box || !img || !area || !window.fetch || !window.DOMParser)
            return;
        var opt = {credentials: 'same-origin'};
        function body(kind) {
            return function (r) {
                if (!r.ok)
                    throw new Error(r.status);
                return kind === 'json' ? r.json() : r.text();
            };
        }
        Promise.all([
            fetch(box.getAttribute('data-legal'), opt).then(body('json')),
            fetch(img.getAttribute('src'), opt).then(body('text'))
        ]).then(function (got) {
            window.djPad = new Pad(box, img, area, got[0], got[1]);
        }).catch(function () {
            /* no pad: the textarea is still there */
        });
    }

    function start() {
        ticker();
        pad();
    }

    if (document.readyState === 'loading')
        document.addEventListener('DOMContentLoaded', start);
    else
        start();
}());
