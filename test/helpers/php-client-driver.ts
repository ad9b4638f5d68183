import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/**
 * The real ChannelEngine PHP client of November 2016 (channelengine/merchant-api-client-php at
 * 993926d), driven end to end against a listening marketplace. The client is not part of this
 * repository: QUARTET_CE_PHP_CLIENT names a checkout of it (docs/marketplace.md says how to get
 * one), and `php` (Debian: php-cli php-curl php-mbstring) runs the driver below, which the test
 * writes into a temporary directory.
 */
export const CLIENT_COMMIT = '993926d012c2b4daabd40c244ec754a43ed19a1d'
export const CLIENT_ENV = 'QUARTET_CE_PHP_CLIENT'

/**
 * The checkout to drive; or why the test cannot run here (`skip`, a sentence for the skip message);
 * or what is wrong with the checkout it was pointed at (`error`: the test fails saying so).
 */
export function phpClientCheckout(): { dir: string } | { skip: string } | { error: string } {
  const php = spawnSync('php', ['-r', 'echo extension_loaded("curl") && extension_loaded("mbstring") ? "ok" : "missing";'], {
    encoding: 'utf8'
  })
  if (php.error) return { skip: 'php is not installed (Debian: apt-get install php-cli php-curl php-mbstring)' }
  if (php.stdout.trim() !== 'ok') return { skip: 'php lacks the curl or mbstring extension (Debian: php-curl php-mbstring)' }
  const dir = process.env[CLIENT_ENV]
  if (!dir)
    return {
      skip:
        `${CLIENT_ENV} is not set: point it at a checkout of channelengine/merchant-api-client-php at ${CLIENT_COMMIT.slice(0, 7)} ` +
        '(see docs/marketplace.md, "The official PHP client end to end")'
    }
  for (const file of ['autoload.php', 'lib/ApiClient.php', 'lib/Api/ProductApi.php', 'lib/Model/ProductCreationResult.php']) {
    if (!fs.existsSync(path.join(dir, file)))
      return {
        error: `${CLIENT_ENV}=${dir} is not a checkout of merchant-api-client-php at ${CLIENT_COMMIT.slice(0, 7)}: ${file} is missing`
      }
  }
  const head = spawnSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' })
  if (head.status === 0 && head.stdout.trim() !== CLIENT_COMMIT)
    return {
      error: `${CLIENT_ENV}=${dir} is at ${head.stdout.trim()}, not ${CLIENT_COMMIT}: git -C ${dir} checkout ${CLIENT_COMMIT.slice(0, 7)}`
    }
  return { dir: path.resolve(dir) }
}

/** One call of the driver's story, as its JSON summary reports it. */
export interface DriverCall {
  n: number
  op: string
  role: 'merchant' | 'channel'
  what: string
  ok: boolean
  problems: string[]
}
export interface DriverSummary {
  php: string
  /** Every operation of the client's lib/Api classes, and the ones the story called. */
  operations: string[]
  called: string[]
  calls: DriverCall[]
  passed: number
  failed: number
}

/**
 * The driver: 31 calls through the client's Api classes (every one of its 21 operations, several
 * more than once), a merchant and a channel key as default headers (the 2016 operations never add
 * the key themselves). Each answer is what the client's own ObjectSerializer made of the body;
 * a call passes when the client raised nothing (no ApiException, no PHP error or warning), the
 * envelope says Success, every model in the answer is valid by its own listInvalidProperties(),
 * and the values the story goes on to use are there. One exception to listInvalidProperties():
 * the generated check also runs in_array(null, allowed) on optional enums (Gender, VatRateType,
 * Reason, Type), so it calls an unset optional enum invalid; an enum message about a null value is
 * not counted (a wrong value could not get there: the enum setters throw on it while deserialising).
 *
 * Environment: CE_CLIENT_DIR (the checkout), CE_HOST (http://host:port), CE_MERCHANT_KEY,
 * CE_CHANNEL_KEY. Prints the JSON summary (DriverSummary) on stdout.
 */
export const PHP_DRIVER = String.raw`<?php
error_reporting(E_ALL);
// The 2016 code predates PHP 8's ArrayAccess return types: those notices are not failures; every other notice or warning is.
set_error_handler(function ($severity, $message, $file, $line) {
    if ($severity & (E_DEPRECATED | E_USER_DEPRECATED)) {
        return true;
    }
    throw new ErrorException($message, 0, $severity, $file, $line);
});
require getenv('CE_CLIENT_DIR') . '/autoload.php';

use Swagger\Client\Api as A;
use Swagger\Client\ApiClient;
use Swagger\Client\ApiException;
use Swagger\Client\Configuration;
use Swagger\Client\Model as M;

function client_for($key)
{
    $config = new Configuration();
    $config->setHost(rtrim(getenv('CE_HOST'), '/'));
    $config->addDefaultHeader('X-CE-KEY', $key);
    return new ApiClient($config);
}
$merchant = client_for(getenv('CE_MERCHANT_KEY'));
$channel = client_for(getenv('CE_CHANNEL_KEY'));
$api = array(
    'merchant' => array(
        'product' => new A\ProductApi($merchant), 'order' => new A\OrderApi($merchant), 'shipment' => new A\ShipmentApi($merchant),
        'backorder' => new A\BackOrderApi($merchant), 'cancellation' => new A\CancellationApi($merchant),
        'return' => new A\ReturnApi($merchant)
    ),
    'channel' => array(
        'product' => new A\ProductApi($channel), 'order' => new A\OrderApi($channel), 'shipment' => new A\ShipmentApi($channel),
        'cancellation' => new A\CancellationApi($channel), 'return' => new A\ReturnApi($channel)
    )
);

/** What the client's own validation says about a deserialised answer, recursively. */
function model_problems($value, $path)
{
    $out = array();
    if (is_array($value)) {
        foreach ($value as $i => $item) {
            $out = array_merge($out, model_problems($item, $path . '[' . $i . ']'));
        }
        return $out;
    }
    if (!is_object($value) || !method_exists($value, 'listInvalidProperties')) {
        return $out;
    }
    foreach ($value->listInvalidProperties() as $message) {
        if (preg_match("/^invalid value for '(\\w+)', must be one of/", $message, $m) && $value[$m[1]] === null) {
            continue;
        }
        $out[] = $path . ': ' . $message;
    }
    $getters = $value::getters();
    $names = $value::attributeMap();
    foreach (array_keys($value::swaggerTypes()) as $property) {
        $getter = $getters[$property];
        $out = array_merge($out, model_problems($value->$getter(), $path . '.' . $names[$property]));
    }
    return $out;
}

function same($actual, $expected, $what)
{
    return $actual === $expected ? array() : array($what . ': expected ' . json_encode($expected) . ', got ' . json_encode($actual));
}

$calls = array();
$called = array();
/** One call: runs it, validates the answer, runs the story's own checks (a list of problems). */
function step($op, $role, $what, $call, $check = null)
{
    global $calls, $called;
    $entry = array('n' => count($calls) + 1, 'op' => $op, 'role' => $role, 'what' => $what, 'ok' => false, 'problems' => array());
    $called[$op] = true;
    $result = null;
    try {
        $result = $call();
        $problems = model_problems($result, '$');
        if ($result->getSuccess() !== true) {
            $problems[] = 'Success is ' . json_encode($result->getSuccess());
        }
        if ($check !== null && count($problems) === 0) {
            $problems = array_merge($problems, $check($result));
        }
        $entry['problems'] = $problems;
    } catch (ApiException $e) {
        $body = $e->getResponseBody();
        $message = is_object($body) && isset($body->Message) ? $body->Message : json_encode($body);
        $entry['problems'][] = 'ApiException HTTP ' . $e->getCode() . ': ' . $message;
        $result = null;
    } catch (Throwable $e) {
        $entry['problems'][] = get_class($e) . ': ' . $e->getMessage();
        $result = null;
    }
    $entry['ok'] = count($entry['problems']) === 0;
    $calls[] = $entry;
    return $entry['ok'] ? $result : null;
}

function names($products)
{
    $out = array();
    foreach ((array) $products as $p) {
        $out[] = $p->getName();
    }
    sort($out);
    return $out;
}
function extra_data($items)
{
    $out = array();
    foreach ((array) $items as $item) {
        $out[] = array($item->getKey(), $item->getValue(), $item->getType(), $item->getIsPublic());
    }
    return $out;
}
function extra_item($key, $value, $type, $public)
{
    return new M\ExtraDataItem(array('key' => $key, 'value' => $value, 'type' => $type, 'is_public' => $public));
}
function lines_of($lines, $reference)
{
    $out = array();
    foreach ((array) $lines as $line) {
        $out[] = array($line->$reference(), $line->getQuantity());
    }
    return $out;
}

$since = new DateTime('2016-11-15T00:00:00+00:00');
$ids = array();
$address = array(
    'gender' => 'FEMALE', 'first_name' => 'Ann', 'last_name' => 'Buyer', 'street_name' => 'Main', 'house_nr' => '1',
    'zip_code' => '1000AA', 'city' => 'Amsterdam', 'country_iso' => 'NL'
);

// ---- products: the merchant creates a parent with two children and a single product (a child listed before its parent).
step('productCreate', 'merchant', 'a parent, its two children and a single product', function () use ($api) {
    return $api['merchant']['product']->productCreate(array(
        new M\MerchantProductRequest(array(
            'merchant_reference' => 'TEE-M', 'parent_merchant_reference' => 'TEE', 'name' => 'T-shirt M', 'size' => 'M',
            'ean' => '8712345678906', 'stock' => 12, 'price' => 19.99, 'msrp' => 24.95, 'vat_rate_type' => 'STANDARD'
        )),
        new M\MerchantProductRequest(array(
            'merchant_reference' => 'TEE', 'name' => 'T-shirt', 'description' => 'Organic cotton', 'brand' => 'Acme',
            'vat_rate_type' => 'STANDARD', 'url' => 'https://shop.example/tee', 'category_trail' => 'clothing > shirts',
            'extra_data' => array(extra_item('material', 'cotton', 'TEXT', true))
        )),
        new M\MerchantProductRequest(array(
            'merchant_reference' => 'TEE-L', 'parent_merchant_reference' => 'TEE', 'name' => 'T-shirt L', 'size' => 'L',
            'stock' => 4, 'price' => 19.99, 'vat_rate_type' => 'STANDARD'
        )),
        new M\MerchantProductRequest(array(
            'merchant_reference' => 'MUG', 'name' => 'Mug', 'stock' => 5, 'price' => 7.5, 'vat_rate_type' => 'REDUCED',
            'extra_data' => array(extra_item('volume', '300', 'NUMBER', false))
        ))
    ));
}, function ($r) {
    $c = $r->getContent();
    return array_merge(same($c->getAcceptedCount(), 4, 'AcceptedCount'), same($c->getRejectedCount(), 0, 'RejectedCount'));
});
step('productGetByMerchantReference', 'merchant', 'the parent, with its ExtraData', function () use ($api) {
    return $api['merchant']['product']->productGetByMerchantReference('TEE');
}, function ($r) {
    $p = $r->getContent();
    return array_merge(
        same(array($p->getName(), $p->getIsActive(), $p->getVatRateType()), array('T-shirt', true, 'STANDARD'), 'Name, IsActive, VAT'),
        same(extra_data($p->getExtraData()), array(array('material', 'cotton', 'TEXT', true)), 'ExtraData')
    );
});
step('productGetByMerchantReference', 'merchant', 'a child', function () use ($api) {
    return $api['merchant']['product']->productGetByMerchantReference('TEE-M');
}, function ($r) {
    $p = $r->getContent();
    $got = array($p->getSize(), $p->getPrice(), $p->getMsrp(), $p->getStock());
    return same($got, array('M', 19.99, 24.95, 12), 'Size, Price, MSRP, Stock');
});

// ---- product sync: parents first, children once their parent is acknowledged.
step('productGetDataChanges', 'channel', 'parents to create (children wait)', function () use ($api) {
    return $api['channel']['product']->productGetDataChanges(100);
}, function ($r) use (&$ids) {
    $c = $r->getContent();
    foreach ((array) $c->getToBeCreated() as $p) {
        $ids[$p->getName()] = $p->getId();
        if ($p->getName() === 'T-shirt') {
            $tee = extra_data($p->getExtraData());
        }
    }
    return array_merge(
        same(names($c->getToBeCreated()), array('Mug', 'T-shirt'), 'ToBeCreated'),
        same(isset($tee) ? $tee : null, array(array('material', 'cotton', 'TEXT', true)), 'ToBeCreated T-shirt ExtraData'),
        same(array(count((array) $c->getToBeUpdated()), (array) $c->getToBeRemoved()), array(0, array()), 'ToBeUpdated count, ToBeRemoved')
    );
});
step('productAcknowledgeDataChanges', 'channel', 'Created: the parents, by Id', function () use ($api, &$ids) {
    return $api['channel']['product']->productAcknowledgeDataChanges(new M\ChannelProcessedChangesRequest(array('created' => array(
        new M\ChannelReferencesRequest(array('id' => isset($ids['T-shirt']) ? $ids['T-shirt'] : 0, 'channel_reference' => 'bol-TEE')),
        new M\ChannelReferencesRequest(array('id' => isset($ids['Mug']) ? $ids['Mug'] : 0, 'channel_reference' => 'bol-MUG'))
    ))));
});
step('productGetDataChanges', 'channel', 'the children, under their parent', function () use ($api) {
    return $api['channel']['product']->productGetDataChanges();
}, function ($r) use (&$ids) {
    $parents = array();
    foreach ((array) $r->getContent()->getToBeCreated() as $p) {
        $ids[$p->getName()] = $p->getId();
        $parents[] = $p->getParentChannelReference();
    }
    return array_merge(
        same(names($r->getContent()->getToBeCreated()), array('T-shirt L', 'T-shirt M'), 'ToBeCreated'),
        same($parents, array('bol-TEE', 'bol-TEE'), 'ParentChannelReference')
    );
});
step('productAcknowledgeDataChanges', 'channel', 'Created: the children', function () use ($api, &$ids) {
    return $api['channel']['product']->productAcknowledgeDataChanges(new M\ChannelProcessedChangesRequest(array('created' => array(
        new M\ChannelReferencesRequest(array('id' => isset($ids['T-shirt M']) ? $ids['T-shirt M'] : 0, 'channel_reference' => 'bol-TEE-M')),
        new M\ChannelReferencesRequest(array('id' => isset($ids['T-shirt L']) ? $ids['T-shirt L'] : 0, 'channel_reference' => 'bol-TEE-L'))
    ))));
});
step('productCreate', 'merchant', 'a price/stock update and a description change', function () use ($api) {
    return $api['merchant']['product']->productCreate(array(
        new M\MerchantProductRequest(array(
            'merchant_reference' => 'MUG', 'name' => 'Mug', 'stock' => 3, 'price' => 8.5, 'vat_rate_type' => 'REDUCED',
            'extra_data' => array(extra_item('volume', '300', 'NUMBER', false))
        )),
        new M\MerchantProductRequest(array(
            'merchant_reference' => 'TEE', 'name' => 'T-shirt', 'description' => 'Organic cotton, regular fit', 'brand' => 'Acme',
            'vat_rate_type' => 'STANDARD', 'url' => 'https://shop.example/tee', 'category_trail' => 'clothing > shirts',
            'extra_data' => array(extra_item('material', 'cotton', 'TEXT', true))
        ))
    ));
}, function ($r) {
    $c = $r->getContent();
    return array_merge(same($c->getAcceptedCount(), 2, 'AcceptedCount'), same($c->getRejectedCount(), 0, 'RejectedCount'));
});
step('productGetOfferChanges', 'channel', 'the new price and stock', function () use ($api) {
    return $api['channel']['product']->productGetOfferChanges();
}, function ($r) {
    $out = array();
    foreach ((array) $r->getContent() as $o) {
        $out[] = array($o->getChannelProductReference(), $o->getPrice(), $o->getStock());
    }
    return array_merge(same($out, array(array('bol-MUG', 8.5, 3)), 'offers'), same($r->getCount(), 1, 'Count'));
});
step('productAcknowledgeOfferChanges', 'channel', 'the offer, by ChannelReference', function () use ($api) {
    return $api['channel']['product']->productAcknowledgeOfferChanges(array('bol-MUG'));
});
step('productGetDataChanges', 'channel', 'the changed description', function () use ($api) {
    return $api['channel']['product']->productGetDataChanges();
}, function ($r) {
    $c = $r->getContent();
    $updated = (array) $c->getToBeUpdated();
    return array_merge(
        same(array(count((array) $c->getToBeCreated()), names($updated)), array(0, array('T-shirt')), 'ToBeCreated count, ToBeUpdated'),
        same(
            isset($updated[0]) ? array($updated[0]->getDescription(), extra_data($updated[0]->getExtraData())) : null,
            array('Organic cotton, regular fit', array(array('material', 'cotton', 'TEXT', true))),
            'the update'
        )
    );
});
step('productAcknowledgeDataChanges', 'channel', 'Updated: the parent', function () use ($api) {
    $changes = new M\ChannelProcessedChangesRequest(array('updated' => array('bol-TEE')));
    return $api['channel']['product']->productAcknowledgeDataChanges($changes);
});

// ---- orders: the channel places one, the merchant fetches and acknowledges it (the 2016 acknowledgement has no lines).
step('orderCreate', 'channel', 'an order of two lines', function () use ($api, $address) {
    return $api['channel']['order']->orderCreate(new M\ChannelOrderRequest(array(
        'channel_reference' => 'BOL-1001', 'phone' => '0612345678', 'email' => 'ann@example.com', 'payment_method' => 'iDEAL',
        'shipping_costs_incl_vat' => 4.95, 'currency_code' => 'EUR', 'order_date' => new DateTime('2016-11-15T14:26:08+01:00'),
        'channel_customer_reference' => 'C-9',
        'billing_address' => new M\EntitiesAddressModels($address + array('original' => 'Main 1, 1000AA Amsterdam')),
        'shipping_address' => new M\EntitiesAddressModels($address),
        'extra_data' => array('campaign' => 'autumn'),
        'lines' => array(
            new M\ChannelOrderLineRequest(array(
                'channel_product_reference' => 'bol-TEE-M', 'quantity' => 3, 'unit_price_incl_vat' => 19.99,
                'fee_fixed' => 0.0, 'fee_rate' => 0.0
            )),
            new M\ChannelOrderLineRequest(array('channel_product_reference' => 'bol-MUG', 'quantity' => 2, 'unit_price_incl_vat' => 8.5))
        )
    )));
});
$orderId = 0;
step('orderGetNew', 'merchant', 'the new order', function () use ($api) {
    return $api['merchant']['order']->orderGetNew();
}, function ($r) use (&$orderId) {
    $orders = (array) $r->getContent();
    if (count($orders) !== 1) {
        return array('expected 1 new order, got ' . count($orders));
    }
    $o = $orders[0];
    $orderId = $o->getId();
    return array_merge(
        same(lines_of($o->getLines(), 'getMerchantProductReference'), array(array('TEE-M', 3), array('MUG', 2)), 'Lines'),
        same(
            array($o->getChannelName(), $o->getEmail(), $o->getShippingCostsInclVat(), $o->getOrderDate()->format(DATE_ATOM)),
            array('bol', 'ann@example.com', 4.95, '2016-11-15T13:26:08+00:00'),
            'ChannelName, Email, ShippingCostsInclVat, OrderDate'
        ),
        same(
            array($o->getBillingAddress()->getOriginal(), $o->getExtraData()),
            array('Main 1, 1000AA Amsterdam', array('campaign' => 'autumn')),
            'BillingAddress.Original, ExtraData'
        ),
        is_int($orderId) && $orderId > 0 ? array() : array('Id is not a positive int')
    );
});
step('orderAcknowledge', 'merchant', 'as SO-1001', function () use ($api, &$orderId) {
    $model = new M\OrderAcknowledgement(array('merchant_order_reference' => 'SO-1001', 'order_id' => $orderId));
    return $api['merchant']['order']->orderAcknowledge($model);
});

// ---- fulfilment: lines named the ways a 2016 client can name them.
step('shipmentCreate', 'merchant', '2 of TEE-M, by product', function () use ($api) {
    return $api['merchant']['shipment']->shipmentCreate(new M\MerchantShipmentRequest(array(
        'merchant_reference' => 'SH-1', 'merchant_order_reference' => 'SO-1001', 'track_trace_no' => '3S123',
        'track_trace_url' => 'https://track.example/3S123', 'method' => 'PostNL',
        'lines' => array(new M\MerchantShipmentLineRequest(array('merchant_product_reference' => 'TEE-M', 'quantity' => 2)))
    )));
});
step('shipmentIndex', 'channel', 'the shipment, in channel terms', function () use ($api, $since) {
    return $api['channel']['shipment']->shipmentIndex($since);
}, function ($r) {
    $s = (array) $r->getContent();
    return isset($s[0]) && count($s) === 1
        ? same(
            array($s[0]->getChannelOrderReference(), $s[0]->getTrackTraceNo(), lines_of($s[0]->getLines(), 'getChannelProductReference')),
            array('BOL-1001', '3S123', array(array('bol-TEE-M', 2))),
            'shipment'
        )
        : array('expected 1 shipment, got ' . count($s));
});
step('backOrderCreate', 'merchant', 'line 1 as SO-1001-1, and MUG by product', function () use ($api) {
    return $api['merchant']['backorder']->backOrderCreate(new M\BackOrder(array(
        'merchant_backorder_reference' => 'BO-1', 'merchant_order_reference' => 'SO-1001',
        'lines' => array(
            new M\BackOrderLine(array('merchant_order_line_reference' => 'SO-1001-1', 'quantity' => 1)),
            new M\BackOrderLine(array('merchant_order_line_reference' => 'MUG', 'quantity' => 1))
        )
    )));
});
step('backOrderGet', 'merchant', 'BO-1', function () use ($api) {
    return $api['merchant']['backorder']->backOrderGet('BO-1');
}, function ($r) {
    $b = $r->getContent();
    return same(
        array($b->getMerchantOrderReference(), $b->getChannelOrderReference(), lines_of($b->getLines(), 'getMerchantOrderLineReference')),
        array('SO-1001', 'BOL-1001', array(array('SO-1001-1', 1), array('MUG', 1))),
        'backorder'
    );
});
step('backOrderIndex', 'merchant', 'backorders since', function () use ($api, $since) {
    return $api['merchant']['backorder']->backOrderIndex($since);
}, function ($r) {
    $b = (array) $r->getContent();
    return same(isset($b[0]) ? array(count($b), $b[0]->getMerchantBackorderReference()) : array(count($b)), array(1, 'BO-1'), 'backorders');
});
step('cancellationCreate', 'merchant', '1 of MUG, by product', function () use ($api) {
    return $api['merchant']['cancellation']->cancellationCreate(new M\MerchantCancellationRequest(array(
        'merchant_reference' => 'CA-1', 'merchant_order_reference' => 'SO-1001', 'reason' => 'Broken in stock',
        'lines' => array(new M\MerchantCancellationLineRequest(array('merchant_product_reference' => 'MUG', 'quantity' => 1)))
    )));
});
step('cancellationIndex', 'channel', 'the cancellation, in channel terms', function () use ($api, $since) {
    return $api['channel']['cancellation']->cancellationIndex($since);
}, function ($r) {
    $c = (array) $r->getContent();
    return isset($c[0]) && count($c) === 1
        ? same(
            array($c[0]->getChannelOrderReference(), $c[0]->getReason(), lines_of($c[0]->getLines(), 'getChannelProductReference')),
            array('BOL-1001', 'Broken in stock', array(array('bol-MUG', 1))),
            'cancellation'
        )
        : array('expected 1 cancellation, got ' . count($c));
});
step('returnCreate_0', 'merchant', 'POST /v2/returns/merchant: 1 of TEE-M', function () use ($api) {
    return $api['merchant']['return']->returnCreate_0(new M\MerchantReturnRequest(array(
        'merchant_reference' => 'RE-1', 'merchant_order_reference' => 'SO-1001', 'reason' => 'PRODUCT_DEFECT',
        'customer_comment' => 'Seam came loose', 'refund_incl_vat' => 19.99,
        'lines' => array(new M\MerchantReturnLineRequest(array('merchant_product_reference' => 'TEE-M', 'quantity' => 1)))
    )));
});
step('returnCreate', 'channel', 'POST /v2/returns/channel: 1 of bol-TEE-M', function () use ($api) {
    return $api['channel']['return']->returnCreate(new M\ChannelReturnRequest(array(
        'channel_order_reference' => 'BOL-1001', 'channel_reference' => 'BOL-R-1', 'reason' => 'PRODUCT_UNSATISFACTORY',
        'lines' => array(new M\ChannelReturnLineRequest(array('channel_product_reference' => 'bol-TEE-M', 'quantity' => 1)))
    )));
});
step('returnGetChannelReturns', 'merchant', 'GET /v2/returns/merchant', function () use ($api, $since) {
    return $api['merchant']['return']->returnGetChannelReturns($since);
}, function ($r) {
    $out = array();
    foreach ((array) $r->getContent() as $ret) {
        $out[] = array($ret->getMerchantOrderReference(), $ret->getReason(), lines_of($ret->getLines(), 'getMerchantProductReference'));
    }
    return same($out, array(
        array('SO-1001', 'PRODUCT_DEFECT', array(array('TEE-M', 1))),
        array('SO-1001', 'PRODUCT_UNSATISFACTORY', array(array('TEE-M', 1)))
    ), 'returns');
});
step('returnGetMerchantReturns', 'channel', 'GET /v2/returns/channel', function () use ($api, $since) {
    return $api['channel']['return']->returnGetMerchantReturns($since);
}, function ($r) {
    $out = array();
    foreach ((array) $r->getContent() as $ret) {
        $lines = lines_of($ret->getLines(), 'getChannelProductReference');
        $out[] = array($ret->getChannelReference(), $ret->getChannelOrderReference(), $lines);
    }
    return same($out, array(
        array('RE-1', 'BOL-1001', array(array('bol-TEE-M', 1))),
        array('BOL-R-1', 'BOL-1001', array(array('bol-TEE-M', 1)))
    ), 'returns');
});

// ---- removal reaches the channel as its own references.
step('productDelete', 'merchant', 'MUG', function () use ($api) {
    return $api['merchant']['product']->productDelete('MUG');
});
step('productGetDataChanges', 'channel', 'the removal', function () use ($api) {
    return $api['channel']['product']->productGetDataChanges();
}, function ($r) {
    return same((array) $r->getContent()->getToBeRemoved(), array('bol-MUG'), 'ToBeRemoved');
});
step('productAcknowledgeDataChanges', 'channel', 'Removed: bol-MUG', function () use ($api) {
    $changes = new M\ChannelProcessedChangesRequest(array('removed' => array('bol-MUG')));
    return $api['channel']['product']->productAcknowledgeDataChanges($changes);
});
step('productGetDataChanges', 'channel', 'nothing left to do', function () use ($api) {
    return $api['channel']['product']->productGetDataChanges();
}, function ($r) {
    $c = $r->getContent();
    $counts = array(count((array) $c->getToBeCreated()), count((array) $c->getToBeUpdated()), count((array) $c->getToBeRemoved()));
    return same($counts, array(0, 0, 0), 'lists');
});
step('productGetByMerchantReference', 'merchant', 'the deactivated product', function () use ($api) {
    return $api['merchant']['product']->productGetByMerchantReference('MUG');
}, function ($r) {
    return same(array($r->getContent()->getIsActive(), $r->getContent()->getPrice()), array(false, 8.5), 'IsActive, Price');
});

// Every operation of the client's Api classes.
$operations = array();
foreach (array('BackOrderApi', 'CancellationApi', 'OrderApi', 'ProductApi', 'ReturnApi', 'ShipmentApi') as $class) {
    $reflection = new ReflectionClass('Swagger\\Client\\Api\\' . $class);
    foreach ($reflection->getMethods(ReflectionMethod::IS_PUBLIC) as $method) {
        $name = $method->getName();
        $own = $method->getDeclaringClass()->getName() === $reflection->getName();
        if ($own && !in_array($name, array('__construct', 'getApiClient', 'setApiClient')) && substr($name, -12) !== 'WithHttpInfo') {
            $operations[] = $name;
        }
    }
}
sort($operations);
$names = array_keys($called);
sort($names);
$passed = count(array_filter($calls, function ($c) { return $c['ok']; }));
echo json_encode(array(
    'php' => PHP_VERSION, 'operations' => $operations, 'called' => $names, 'calls' => $calls,
    'passed' => $passed, 'failed' => count($calls) - $passed
), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
`
