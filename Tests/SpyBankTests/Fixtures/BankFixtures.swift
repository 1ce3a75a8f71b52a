// Sources as hosts have them, kept as strings so the tests need no resource bundle.
enum BankFixtures {
    /// A list feed export (`…/feeds/list/ID/od6/public/values?alt=json`) of a sheet with the seed app's headers,
    /// shaped like the ones Google served until 2021. The third entry has an empty spy cell.
    static let legacyFeed = """
        {"version":"1.0","encoding":"UTF-8","feed":{"xmlns":"http://www.w3.org/2005/Atom",\
        "xmlns$openSearch":"http://a9.com/-/spec/opensearchrss/1.0/",\
        "xmlns$gsx":"http://schemas.google.com/spreadsheets/2006/extended",\
        "id":{"$t":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values"},\
        "updated":{"$t":"2020-11-02T08:31:12.345Z"},\
        "category":[{"scheme":"http://schemas.google.com/spreadsheets/2006","term":"http://schemas.google.com/spreadsheets/2006#list"}],\
        "title":{"type":"text","$t":"工作表1"},\
        "link":[{"rel":"alternate","type":"application/atom+xml","href":"https://docs.google.com/spreadsheets/d/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/pubhtml"},\
        {"rel":"self","type":"application/atom+xml","href":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values?alt=json"}],\
        "author":[{"name":{"$t":"sheet.owner"},"email":{"$t":"sheet.owner@example.com"}}],\
        "openSearch$totalResults":{"$t":"4"},"openSearch$startIndex":{"$t":"1"},\
        "entry":[\
        {"id":{"$t":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values/cokwr"},\
        "updated":{"$t":"2020-11-02T08:31:12.345Z"},\
        "category":[{"scheme":"http://schemas.google.com/spreadsheets/2006","term":"http://schemas.google.com/spreadsheets/2006#list"}],\
        "title":{"type":"text","$t":"牛奶"},"content":{"type":"text","$t":"spyquestion: 豆漿"},\
        "link":[{"rel":"self","type":"application/atom+xml","href":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values/cokwr"}],\
        "gsx$civilianquestion":{"$t":"牛奶"},"gsx$spyquestion":{"$t":"豆漿"}},\
        {"id":{"$t":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values/cpzh4"},\
        "updated":{"$t":"2020-11-02T08:31:12.345Z"},\
        "category":[{"scheme":"http://schemas.google.com/spreadsheets/2006","term":"http://schemas.google.com/spreadsheets/2006#list"}],\
        "title":{"type":"text","$t":"蘋果"},"content":{"type":"text","$t":"spyquestion: 梨子"},\
        "link":[{"rel":"self","type":"application/atom+xml","href":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values/cpzh4"}],\
        "gsx$civilianquestion":{"$t":"蘋果"},"gsx$spyquestion":{"$t":"梨子"}},\
        {"id":{"$t":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values/cre1l"},\
        "updated":{"$t":"2020-11-02T08:31:12.345Z"},\
        "category":[{"scheme":"http://schemas.google.com/spreadsheets/2006","term":"http://schemas.google.com/spreadsheets/2006#list"}],\
        "title":{"type":"text","$t":"鋼琴"},"content":{"type":"text","$t":""},\
        "link":[{"rel":"self","type":"application/atom+xml","href":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values/cre1l"}],\
        "gsx$civilianquestion":{"$t":"鋼琴"},"gsx$spyquestion":{"$t":""}},\
        {"id":{"$t":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values/chk2m"},\
        "updated":{"$t":"2020-11-02T08:31:12.345Z"},\
        "category":[{"scheme":"http://schemas.google.com/spreadsheets/2006","term":"http://schemas.google.com/spreadsheets/2006#list"}],\
        "title":{"type":"text","$t":"coffee"},"content":{"type":"text","$t":"spyquestion: tea"},\
        "link":[{"rel":"self","type":"application/atom+xml","href":"https://spreadsheets.google.com/feeds/list/1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM/od6/public/values/chk2m"}],\
        "gsx$civilianquestion":{"$t":"coffee"},"gsx$spyquestion":{"$t":"tea"}}\
        ]}}
        """

    /// The answer of `…/gviz/tq?tqx=out:json` for a sheet whose header row Google detected: a `/*O_o*/` comment
    /// line, then the JavaScript wrapper. Row 3 has a null spy cell; row 4 holds a number and a formatted value.
    static let visualization = """
        /*O_o*/
        google.visualization.Query.setResponse({"version":"0.6","reqId":"0","status":"ok","sig":"1417583521",\
        "table":{"cols":[{"id":"A","label":"civilianQuestion","type":"string"},\
        {"id":"B","label":"spyQuestion","type":"string"},{"id":"C","label":"category","type":"string"}],\
        "rows":[{"c":[{"v":"牛奶"},{"v":"豆漿"},{"v":"飲料"}]},\
        {"c":[{"v":"piano"},{"v":"guitar"},{"v":"Music"}]},\
        {"c":[{"v":"蘋果"},null,{"v":"水果"}]},\
        {"c":[{"v":101.0,"f":"101"},{"v":"台北101"},null]}],\
        "parsedNumHeaders":1}});
        """

    /// The same endpoint when Google did not take the first row as labels: empty labels, header in row 1.
    static let visualizationUnlabelled = """
        google.visualization.Query.setResponse({"version":"0.6","reqId":"0","status":"ok","sig":"9",\
        "table":{"cols":[{"id":"A","label":"","type":"string"},{"id":"B","label":"","type":"string"}],\
        "rows":[{"c":[{"v":"平民"},{"v":"臥底"}]},{"c":[{"v":"餃子"},{"v":"包子"}]},{"c":[{"v":"貓"},{"v":"狗"}]}],\
        "parsedNumHeaders":0}});
        """

    /// The endpoint's answer for a private sheet.
    static let visualizationError = """
        /*O_o*/
        google.visualization.Query.setResponse({"version":"0.6","reqId":"0","status":"error",\
        "errors":[{"reason":"access_denied","message":"Access denied","detailed_message":"Sheet is not shared"}]});
        """

    /// A spreadsheet's CSV export with every optional column.
    static let csvWithAllColumns = """
        civilian,spy,category,language,label
        牛奶,豆漿,飲料,zh-TW,family
        coffee,tea,Drinks,en,family
        kiss,hug,Party,en,party
        蘋果,梨子,水果,,

        """
}
