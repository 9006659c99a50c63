/*!
 * EMT e-mail SDK: draws a community's sign-up widget where its script tag is pasted.
 *
 *   <script async src="https://…/sdk/emt-sdk.js" data-widget-id="…" data-community-alias="…"
 *     data-features="subscribe"></script>
 *
 * Plain browser script (ES2019, no dependencies, no build step). It reads its own data-* attributes,
 * asks the gateway it was loaded from for the widget (GET /public/widgets/{id}) and inserts a small
 * accessible form after its script tag. Server texts are only ever set as textContent.
 * Optional: data-api-base="https://gateway.example" when the SDK is served from a CDN.
 */
(function () {
  'use strict';

  var SDK_FILE_PATTERN = /\/(?:sdk\/)?emt-sdk\.js(?:[?#].*)?$/;
  var GENERIC_ERROR = 'Something went wrong. Please try again later.';
  var counter = 0;

  function findScript() {
    var current = document.currentScript;
    if (current && current.getAttribute('data-widget-id') && !current.getAttribute('data-emt-mounted')) {
      return current;
    }
    // Fallback (e.g. the script was injected by a tag manager): the first widget script not yet drawn.
    var scripts = document.querySelectorAll('script[data-widget-id]');
    for (var i = 0; i < scripts.length; i++) {
      if (!scripts[i].getAttribute('data-emt-mounted')) return scripts[i];
    }
    return null;
  }

  /** The gateway's address: data-api-base, else the SDK's own URL without /sdk/emt-sdk.js. */
  function apiBase(script) {
    var explicit = script.getAttribute('data-api-base');
    var base = explicit || String(script.src || '').replace(SDK_FILE_PATTERN, '');
    try {
      var url = new URL(base || '/', document.baseURI);
      return url.href.replace(/\/+$/, '');
    } catch {
      return '';
    }
  }

  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    var names = Object.keys(attributes || {});
    for (var i = 0; i < names.length; i++) node.setAttribute(names[i], attributes[names[i]]);
    if (text) node.textContent = text;
    return node;
  }

  function readJson(response) {
    return response.text().then(function (text) {
      var body = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      return { ok: response.ok, status: response.status, body: body };
    });
  }

  /** The text to show for an answer: a field error first, then the server's message. */
  function messageOf(result) {
    var body = result.body;
    if (body && typeof body === 'object') {
      if (body.errors && typeof body.errors === 'object') {
        var keys = Object.keys(body.errors);
        for (var i = 0; i < keys.length; i++) {
          var list = body.errors[keys[i]];
          if (list && typeof list[0] === 'string') return list[0];
        }
      }
      if (typeof body.message === 'string' && body.message) return body.message;
    }
    return GENERIC_ERROR;
  }

  function mount(script) {
    script.setAttribute('data-emt-mounted', 'true');
    var widgetId = script.getAttribute('data-widget-id') || '';
    var features = String(script.getAttribute('data-features') || 'subscribe').split(/[\s,|]+/);
    var loginOnly = features.indexOf('login') !== -1 && features.indexOf('subscribe') === -1;
    var base = apiBase(script);
    var widgetUrl = base + '/public/widgets/' + encodeURIComponent(widgetId);
    var id = 'emt-widget-' + ++counter;

    var root = el('div', { class: 'emt-widget', 'data-widget-id': widgetId });
    var status = el('p', { class: 'emt-status', role: 'status', 'aria-live': 'polite' });

    function place() {
      if (script.parentNode && script.parentNode !== document.head && script.parentNode !== document.documentElement) {
        script.parentNode.insertBefore(root, script.nextSibling);
      } else if (document.body) {
        document.body.appendChild(root);
      } else {
        document.addEventListener('DOMContentLoaded', function () {
          document.body.appendChild(root);
        });
      }
    }

    function say(text, kind) {
      status.textContent = text;
      status.setAttribute('data-state', kind);
    }

    function post(body) {
      return fetch(widgetUrl + '/signups', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        credentials: 'omit',
      }).then(readJson);
    }

    function draw(widget) {
      var title = widget && widget.community && widget.community.title ? String(widget.community.title) : '';
      var form = el('form', { class: 'emt-form', novalidate: 'novalidate' });
      form.setAttribute('aria-label', title ? 'Sign up to ' + title : 'Sign up');
      var buttons = [];

      function busy(on) {
        for (var i = 0; i < buttons.length; i++) buttons[i].disabled = on;
        form.setAttribute('aria-busy', on ? 'true' : 'false');
      }

      if (!loginOnly && widget.type !== 'Login Widget') {
        var inputId = id + '-email';
        var label = el('label', { for: inputId, class: 'emt-label' }, 'E-mail address');
        var input = el('input', {
          id: inputId,
          type: 'email',
          name: 'email',
          autocomplete: 'email',
          required: 'required',
          maxlength: '254',
          class: 'emt-input',
        });
        var subscribe = el('button', { type: 'submit', class: 'emt-button' }, 'Subscribe');
        buttons.push(subscribe);
        form.appendChild(label);
        form.appendChild(input);
        form.appendChild(subscribe);
        form.addEventListener('submit', function (event) {
          event.preventDefault();
          var email = input.value.trim();
          if (!email) {
            say('Enter your e-mail address.', 'error');
            input.focus();
            return;
          }
          busy(true);
          say('Sending…', 'busy');
          post({ email: email })
            .then(function (result) {
              say(messageOf(result), result.ok ? 'success' : 'error');
              if (result.ok) input.value = '';
            })
            .catch(function () {
              say(GENERIC_ERROR, 'error');
            })
            .then(function () {
              busy(false);
            });
        });
      } else {
        form.addEventListener('submit', function (event) {
          event.preventDefault();
        });
      }

      var ethereum = window.ethereum;
      if (ethereum && typeof ethereum.request === 'function') {
        var walletButton = el('button', { type: 'button', class: 'emt-button emt-wallet' }, 'Sign up with your wallet');
        buttons.push(walletButton);
        form.appendChild(walletButton);
        walletButton.addEventListener('click', function () {
          busy(true);
          say('Waiting for your wallet…', 'busy');
          var address = '';
          ethereum
            .request({ method: 'eth_requestAccounts' })
            .then(function (accounts) {
              address = accounts && typeof accounts[0] === 'string' ? accounts[0] : '';
              if (!address) throw new Error('no account');
              return fetch(widgetUrl + '/challenge', { credentials: 'omit' }).then(readJson);
            })
            .then(function (challenge) {
              if (!challenge.ok || !challenge.body || typeof challenge.body.message !== 'string') {
                return challenge;
              }
              var message = challenge.body.message;
              return ethereum
                .request({ method: 'personal_sign', params: [message, address] })
                .then(function (signature) {
                  return post({ wallet: address, message: message, signature: String(signature) });
                });
            })
            .then(function (result) {
              say(messageOf(result), result.ok ? 'success' : 'error');
            })
            .catch(function (error) {
              var rejected = error && (error.code === 4001 || error.code === 'ACTION_REJECTED');
              say(rejected ? 'The wallet request was cancelled.' : GENERIC_ERROR, 'error');
            })
            .then(function () {
              busy(false);
            });
        });
      } else if (loginOnly || widget.type === 'Login Widget') {
        form.appendChild(el('p', { class: 'emt-note' }, 'Install a browser wallet to sign up with your wallet.'));
      }

      form.appendChild(status);
      root.appendChild(form);
    }

    place();
    if (!widgetId) {
      root.appendChild(status);
      say('This widget is missing its data-widget-id.', 'error');
      return;
    }
    fetch(widgetUrl, { credentials: 'omit' })
      .then(readJson)
      .then(function (result) {
        if (!result.ok || !result.body) {
          root.appendChild(status);
          say(messageOf(result), 'error');
          return;
        }
        draw(result.body);
      })
      .catch(function () {
        root.appendChild(status);
        say(GENERIC_ERROR, 'error');
      });
  }

  var script = findScript();
  if (script) mount(script);
})();
